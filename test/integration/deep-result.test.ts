// A result nested 5,000 levels deep (issue 9, item 12): the CLI's --json
// said "Maximum call stack size exceeded" and the gateway's agent was never
// answered. An SDK server cannot even send such a result (its encoder
// overflows first), so the server here is a raw one written by hand
// (test/fixtures/servers/raw-deep-server.ts), over stdio and over HTTP.
// Every path must end the call with one clear sentence naming the server and
// the limit, and the connection must stay usable.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallView } from '../../shared/host-api/contract';
import { runCli } from '../../electron/cli/main';
import type { ServerEntry } from '../../electron/core/config/server-config';
import { LIMITS } from '../../electron/core/limits';
import { HostService } from '../../electron/core/service/host-service';
import { startAgent, tsxLoader } from '../gateway/harness';

const RAW = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'servers', 'raw-deep-server.ts');
const stdioEntry: ServerEntry = { command: process.execPath, args: ['--import', tsxLoader, RAW] };
const tooDeep = (server: string) =>
  `server "${server}" sent a result nested more than ${LIMITS.messageDepth} levels deep (the host's limit), so the host did not accept it`;

let http: ChildProcess;
let httpUrl: string;
beforeAll(async () => {
  http = spawn(process.execPath, ['--import', tsxLoader, RAW, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve) => createInterface({ input: http.stdout! }).once('line', resolve));
  httpUrl = (JSON.parse(first) as { url: string }).url;
});
afterAll(() => {
  http?.kill();
});

function dataDir(servers: Record<string, ServerEntry>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-deep-'));
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: servers }));
  return dir;
}

describe('a result nested 5,000 levels deep', () => {
  it('the CLI (--json) exits 2 with the limit, not a stack overflow', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const env = {
      COUNTERSIGN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cs-deep-cli-')),
      COUNTERSIGN_GATEWAY_AUTOSTART: '0',
    };
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env };
    const code = await runCli(
      ['call', '--stdio', `"${process.execPath}" --import ${tsxLoader} "${RAW}"`, '--tool', 'deep', '--json'],
      io,
    );
    expect(code).toBe(2);
    expect(err.join('')).toContain(tooDeep('raw-deep-server.ts'));
    expect(err.join('') + out.join('')).not.toContain('Maximum call stack');
  });

  for (const transport of ['stdio', 'stdio 2026-07-28', 'http'] as const) {
    it(`the app (over ${transport}) ends the call with the limit, and the next call on the connection works`, async () => {
      const entry: ServerEntry =
        transport === 'http'
          ? { url: httpUrl }
          : transport === 'stdio'
            ? stdioEntry
            : { command: process.execPath, args: ['--import', tsxLoader, RAW, '--modern'] };
      const svc = await HostService.create({
        dataDir: dataDir({ raw: entry }),
        openExternal: async () => undefined,
        connectOnStart: false,
        watchConfig: false,
      });
      svc.log = () => undefined;
      try {
        const ended = (callId: string) =>
          new Promise<CallView>((resolve) => {
            const off = svc.on('callUpdated', (v) => {
              if (v.callId === callId && v.state !== 'running') {
                off();
                resolve(v);
              }
            });
          });
        const deep = await svc.invoke('callTool', { server: 'raw', tool: 'deep', args: {} });
        expect(await ended(deep.callId)).toMatchObject({ state: 'error', error: tooDeep('raw') });
        // Just within the limit passes (the result object itself is one of the levels).
        const within = await svc.invoke('callTool', {
          server: 'raw',
          tool: 'deep',
          args: { depth: LIMITS.messageDepth - 1 },
        });
        expect((await ended(within.callId)).state).toBe('complete');
        const next = await svc.invoke('callTool', { server: 'raw', tool: 'shallow', args: {} });
        expect(await ended(next.callId)).toMatchObject({
          state: 'complete',
          result: { content: [{ type: 'text', text: 'shallow' }] },
        });
      } finally {
        await svc.close();
      }
    });
  }

  it('the gateway answers its agent at once with the limit (it never answered before)', async () => {
    const agent = await startAgent(dataDir({ raw: stdioEntry }), { era: 'modern' });
    try {
      const outcome = await agent.client.callTool({ name: 'raw__deep', arguments: {} }).then(
        (r) => JSON.stringify(r),
        (e: unknown) => String(e),
      );
      expect(outcome).toContain(`nested more than ${LIMITS.messageDepth} levels deep (the host's limit)`);
      expect(outcome).toMatch(/server \\?"raw\\?"/);
      const shallow = await agent.client.callTool({ name: 'raw__shallow', arguments: {} });
      expect(shallow.content).toEqual([{ type: 'text', text: 'shallow' }]);
    } finally {
      await agent.close();
    }
  });
});
