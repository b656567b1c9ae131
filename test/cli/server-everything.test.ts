// The official server-everything (published, pinned, installed by the test:
// a 2025-11-25 server whose simulate-research-query runs as a task and asks
// a clarification inside it) driven by `countersign call` with scripted
// answers: the refused-answer contract of tasks-refused-answer.test.ts holds
// against the real package too, and a valid answer reaches it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../support/cli';
import { pinnedPackage } from '../support/pinned-package';

const VERSION = '2026.8.31';
let command: string;

beforeAll(() => {
  const dir = pinnedPackage('@modelcontextprotocol/server-everything', VERSION);
  command = `"${process.execPath}" "${join(dir, 'dist', 'index.js')}" stdio`;
}, 180_000);

const research = (elicit: string, ...more: string[]) =>
  runCliIn(mkdtempSync(join(tmpdir(), 'cs-everything-')), [
    'call',
    '--stdio',
    command,
    '--tool',
    'simulate-research-query',
    '--args',
    JSON.stringify({ topic: 'python', ambiguous: true }),
    '--elicit',
    elicit,
    ...more,
  ]);

describe(`server-everything ${VERSION}: simulate-research-query (a task that asks)`, () => {
  it('accept-defaults on its required field without a default: nothing sent, task cancelled, exit 2, listed as refused', async () => {
    const r = await research('accept-defaults', '--json');
    const reason = 'answer to "task-elicit-1" does not match the form: interpretation: "Clarification" is required.';
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout.join('\n'));
    expect(out.era).toBe('legacy');
    expect(out.error).toEqual({ code: 'invalid-answer', message: reason });
    expect(out.questions).toEqual([
      expect.objectContaining({ round: 1, key: 'task-elicit-1', mode: 'form', action: 'refused', reason }),
    ]);
    // The server's own fallback ("technical (default - elicitation unavailable)") never ran.
    expect(out.result).toBeUndefined();
    expect(r.stdout.join('\n')).not.toContain('Research Report');
  }, 90_000);

  it('the same line in the plain output, after the task was cancelled', async () => {
    const r = await research('accept-defaults');
    expect(r.code).toBe(2);
    expect(r.stderr.filter((l) => l.startsWith('[TASK]')).at(-1)).toMatch(/ cancelled /);
    expect(r.stderr.at(-1)).toBe(
      'countersign: error: answer to "task-elicit-1" does not match the form: interpretation: "Clarification" is required.',
    );
  }, 90_000);

  it('a valid scripted answer reaches the server, and its report says so', async () => {
    const r = await research('accept:{"interpretation":"programming"}');
    expect(r.code).toBe(0);
    expect(r.stdout.join('\n')).toContain('# Research Report: python (programming)');
  }, 90_000);
});
