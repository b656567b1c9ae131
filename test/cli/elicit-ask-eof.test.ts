// `--elicit ask` when stdin ends before an answer (a closed pipe, Ctrl-D, a
// script that forgot its input): nobody chose anything. The host ends the
// question for its own named reason, the history says so (never the human's
// or a script's cancel), and the command exits 2 with one line saying why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUT_CLOSED } from '../../electron/cli/terminal-prompter';
import { fixtureCommandLine } from '../fixtures/spawn-fixture';
import { runCliIn, startBin } from '../support/cli';

const modern = fixtureCommandLine('modern');

describe('--elicit ask on a closed stdin', () => {
  it('ends the question for the host’s reason, records that, and exits 2 (a real process, stdin at EOF)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-data-'));
    const argv = ['call', '--stdio', modern, '--name', 'kimai', '--tool', 'confirm_delete', '--args', '{"entryId":4}'];
    const bin = startBin([...argv, '--elicit', 'ask'], dir, 'ignore');
    const code = await bin.exited;
    expect(code).toBe(2);
    const err = bin.stderr().trim().split('\n');
    expect(err).toContain('[ASK] kimai asks (tools/call confirm_delete): Delete time entry 4?');
    expect(err).toContain(`[ASK] ${INPUT_CLOSED}`);
    expect(err.at(-1)).toBe(`countersign: error: ${INPUT_CLOSED}`);

    const listed = await runCliIn(dir, ['history', '--json']);
    const rows = listed.stdout
      .join('\n')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message?: string; decidedBy?: string; decidedByDetail?: string });
    const question = rows.find((r) => r.type === 'question' && r.message === 'Delete time entry 4?');
    expect(question).toMatchObject({ action: 'cancel', decidedBy: 'input-closed', decidedByDetail: INPUT_CLOSED });
    expect((await runCliIn(dir, ['history', 'verify'])).code).toBe(0);
  }, 60_000);
});
