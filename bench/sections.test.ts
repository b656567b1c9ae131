// The bench runner runs each section in a process of its own, goes on past a section that fails,
// and says which one and why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inOwnProcess, runSections, type Section } from './sections';

const figure = (name: string) => ({ name, value: 1, unit: 'ms', goal: null });

describe('runSections', () => {
  const sections: Section[] = [
    { title: 'First', run: async () => [figure('a')] },
    {
      title: 'Renderer (Chromium)',
      run: async () => {
        throw new Error('browserType.launch: Failed to launch chromium\n    at launchChromium (x.ts:1:1)');
      },
    },
    { title: 'Last', run: async () => [figure('b'), figure('c')] },
  ];

  it('runs the sections after a failed one, and names the failure by its first line', async () => {
    const log: string[] = [];
    const run = await runSections(sections, [], (line) => log.push(line));
    expect(run.results.map((r) => `${r.section}/${r.name}`)).toEqual(['First/a', 'Last/b', 'Last/c']);
    expect(run.failed).toEqual([
      { section: 'Renderer (Chromium)', error: 'browserType.launch: Failed to launch chromium' },
    ]);
    expect(log.some((l) => l.startsWith('bench: Renderer (Chromium) FAILED after'))).toBe(true);
  });

  it('runs only the sections named, case-insensitively', async () => {
    const run = await runSections(sections, ['last'], () => {});
    expect(run.results.map((r) => r.name)).toEqual(['b', 'c']);
    expect(run.failed).toEqual([]);
  });
});

describe('inOwnProcess', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sections-test-'));
    // A stand-in for bench/run.ts's `--section <title> --out <file>` mode, in plain JavaScript.
    writeFileSync(
      join(dir, 'runner.mjs'),
      [
        "import { writeFileSync } from 'node:fs';",
        'const a = process.argv.slice(2);',
        "const title = a[a.indexOf('--section') + 1];",
        "const out = a[a.indexOf('--out') + 1];",
        "if (title === 'ok') writeFileSync(out, JSON.stringify({ figures: [{ name: `pid ${process.pid}`, value: 2, unit: 'ms', goal: null }] }));",
        "else if (title === 'throws') { writeFileSync(out, JSON.stringify({ error: 'no chromium here' })); process.exit(1); }",
        'else process.exit(3);',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the section in another process and brings back its figures', async () => {
    const figures = await inOwnProcess(join(dir, 'runner.mjs'), 'ok').run();
    expect(figures).toHaveLength(1);
    expect(figures[0]!.name).toMatch(/^pid \d+$/);
    expect(figures[0]!.name).not.toBe(`pid ${process.pid}`);
  });

  it("reports the section's own error, or how its process ended when it wrote none", async () => {
    await expect(inOwnProcess(join(dir, 'runner.mjs'), 'throws').run()).rejects.toThrow(/^no chromium here$/);
    await expect(inOwnProcess(join(dir, 'runner.mjs'), 'dies').run()).rejects.toThrow(/exited with 3/);
  });
});
