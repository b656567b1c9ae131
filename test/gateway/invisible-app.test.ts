// An approval nobody can see is not a wait (issue 9, item 16). The gateway
// starts the app (here the real `countersign web`, named in app-command.json)
// where no browser can open: the opener fails, as xdg-open does without a
// desktop session. The agent must be told at once that nothing was done,
// the question must never reach the server as answered, and the user gets a
// desktop notification (a stand-in notify-send on PATH records it).
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readWireLog } from '../fixtures/spawn-fixture';
import { makeRendererDir } from '../web/helpers';
import { eventually, makeDataDir, startAgent, textOf } from './harness';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Pids of the processes whose command line names `dataDir` (the web shell the gateway started). */
function processesFor(dataDir: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.includes(dataDir) && argv.includes('web')) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe.skipIf(process.platform !== 'linux')('an approval app nobody can see', () => {
  it('the gateway starts `countersign web`, its browser cannot open: the agent is told at once, nothing is answered, the user is notified', async () => {
    const { dataDir, wireLogs } = makeDataDir({ modern: 'modern' });
    const renderer = makeRendererDir();
    cleanups.push(() => renderer.cleanup());
    const bin = mkdtempSync(join(tmpdir(), 'cs-invisible-bin-'));
    // No desktop session: the "browser" fails the way xdg-open does there.
    const opener = join(bin, 'no-display-opener');
    writeFileSync(opener, '#!/bin/sh\necho "no display" >&2\nexit 3\n');
    chmodSync(opener, 0o755);
    // The system notifier, recorded.
    const notes = join(bin, 'notifications');
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\nprintf '%s\\n' "$@" >> ${notes}\n`);
    chmodSync(join(bin, 'notify-send'), 0o755);
    writeFileSync(
      join(dataDir, 'app-command.json'),
      JSON.stringify({
        command: [
          process.execPath,
          join(repo, 'bin', 'countersign.mjs'),
          'web',
          '--data-dir',
          dataDir,
          '--renderer',
          renderer.rendererDir,
          '--open-with',
          opener,
        ],
      }),
    );
    cleanups.push(() => {
      for (const pid of processesFor(dataDir)) process.kill(pid, 'SIGTERM');
    });
    const agent = await startAgent(dataDir, {
      env: { COUNTERSIGN_GATEWAY_AUTOSTART: '1', PATH: `${bin}:${process.env.PATH}` },
    });
    cleanups.push(() => agent.close());

    const r = await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 16 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /^Countersign: approval app started but not visible: nothing was done: the browser could not be opened \(\S*no-display-opener could not open it \(exit code 3\)\) and no tab is connected$/,
    );
    expect(r._meta).toMatchObject({
      'io.countersign/host-generated': true,
      'io.countersign/host-error': 'approval-app-not-visible',
    });
    expect(agent.stderr()).toContain('starting it (app-command.json)');
    // The server was never answered: one tools/call, no retry with inputResponses.
    const calls = readWireLog(wireLogs.modern!).filter((e) => e.dir === 'in' && e.msg?.method === 'tools/call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.msg.params).not.toHaveProperty('inputResponses');
    // The user was told where a person looks.
    await eventually(() => existsSync(notes), 5_000, 'the notification');
    const note = readFileSync(notes, 'utf8');
    expect(note).toContain('Countersign: an agent’s question was not shown');
    expect(note).toContain('nothing was done');
    // The app's history says why the question was refused.
    await eventually(
      () =>
        readdirSync(join(dataDir, 'history')).some((f) =>
          readFileSync(join(dataDir, 'history', f), 'utf8').includes('"fault":"approval-channel"'),
        ),
      5_000,
      'the fault in the history',
    );
    // The next question is refused just as fast: the app is running, still nobody sees it.
    const again = await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 17 } });
    expect(textOf(again)).toMatch(/^Countersign: approval app started but not visible: nothing was done: /);
    expect(processesFor(dataDir)).toHaveLength(1);
  });
});
