// The bench runner goes on past a section that fails, and says which one and why.
import { describe, expect, it } from 'vitest';
import { runSections, type Section } from './sections';

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
