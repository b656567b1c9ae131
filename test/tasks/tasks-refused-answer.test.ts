// One contract for a scripted answer the host refuses (accept-defaults on a
// form whose required field has no default), in a plain call and inside a
// task, in both task forms (the 2026-07-28 Tasks extension and SDK 1.x
// task-augmented calls): the invalid answer is never sent, the task is
// cancelled with tasks/cancel, the CLI exits 2 with the same error line as a
// plain call, and --json lists the question as refused, with the reason.
// The fixture's `research` tool falls back to a topic of its own when it gets
// no accepted topic, as server-everything's simulate-research-query does.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receivedRequests, stdioFixture } from '../integration/host-harness';
import { readWireLog } from '../fixtures/spawn-fixture';
import { fixtureCommandLine } from '../fixtures/spawn-fixture';
import { runCliIn } from '../support/cli';

/** `countersign call` on a fixture whose wire log is kept (the CLI passes env only from a config file). */
async function callFixture(kind: 'tasks-modern' | 'tasks-legacy', ...argv: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-refused-'));
  const fx = stdioFixture(kind);
  writeFileSync(join(dir, 'servers.json'), JSON.stringify({ mcpServers: { fx: fx.entry } }));
  const r = await runCliIn(dir, ['call', '--server', 'fx', '--config', join(dir, 'servers.json'), ...argv]);
  return { ...r, wireLog: fx.wireLog };
}

const REFUSED = 'answer to "%s" does not match the form: topic: "Topic" is required.';

describe('a plain call: the reference', () => {
  it('exit 2, one error line, the question listed as refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-refused-'));
    const r = await runCliIn(dir, [
      'call',
      '--stdio',
      fixtureCommandLine('modern'),
      '--tool',
      'two_rounds',
      '--elicit',
      'accept-defaults',
      '--json',
    ]);
    expect(r.code).toBe(2);
    const reason = 'answer to "name" does not match the form: name: "Name" is required.';
    expect(r.stderr).toEqual([`countersign: error: ${reason}`]);
    const out = JSON.parse(r.stdout.join('\n'));
    expect(out.questions).toEqual([
      {
        round: 1,
        key: 'name',
        mode: 'form',
        message: 'What name should the booking use?',
        action: 'refused',
        reason,
      },
    ]);
    expect(out.error).toEqual({ code: 'invalid-answer', message: reason });
  });
});

describe.each([
  ['tasks-modern', 'topic'],
  ['tasks-legacy', 'task-elicit-1'],
] as const)('inside a task (%s)', (kind, key) => {
  it('sends nothing, cancels the task, exits 2 with the plain call line and lists the refused question', async () => {
    const r = await callFixture(kind, '--tool', 'research', '--elicit', 'accept-defaults', '--json');
    const reason = REFUSED.replace('%s', key);
    expect(r.code).toBe(2);
    expect(r.stderr.at(-1)).toBe(`countersign: error: ${reason}`);
    expect(r.stderr.filter((l) => l.startsWith('countersign: error:'))).toHaveLength(1);
    const out = JSON.parse(r.stdout.join('\n'));
    expect(out.error).toEqual({ code: 'invalid-answer', message: reason });
    expect(out.questions).toEqual([
      { round: 1, key, mode: 'form', message: 'What should the research cover?', action: 'refused', reason },
    ]);
    expect(out.result).toBeUndefined();

    // The server was told to cancel the task, and never got the invalid answer.
    const cancels = receivedRequests(r.wireLog, 'tasks/cancel');
    expect(cancels).toHaveLength(1);
    expect(receivedRequests(r.wireLog, 'tasks/update')).toHaveLength(0);
    const entries = readWireLog(r.wireLog);
    const accepted = entries.filter((e) => e.dir === 'in' && e.msg?.result?.action === 'accept');
    expect(accepted).toHaveLength(0);
    // Its own fallback never ran: no result saying it researched a topic of its own.
    expect(JSON.stringify(entries)).not.toContain("server's own fallback");
    if (kind === 'tasks-legacy') {
      // The pending elicitation/create is answered with a cancel, after tasks/cancel went out.
      const elicit = entries.find((e) => e.dir === 'out' && e.msg?.method === 'elicitation/create');
      const reply = entries.findIndex((e) => e.dir === 'in' && e.msg?.id === elicit?.msg.id && !('method' in e.msg));
      const cancelAt = entries.findIndex((e) => e.dir === 'in' && e.msg?.method === 'tasks/cancel');
      expect(reply).toBeGreaterThan(cancelAt);
      expect(entries[reply]!.msg.result).toEqual({ action: 'cancel' });
    }
  });
});
