// The bench runner's loop over its sections, apart from bench/run.ts so that its one rule is
// tested: a section that fails (Chromium missing, a fixture that would not start) is reported
// and the others still run. A full run takes minutes; one failure should not lose every figure.

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** A number: value must be ≤ goal; a string such as "≤ 1.25×" or "≥ 1000 calls/s"; null: for orientation. */
  goal: number | string | null;
}

export interface Section {
  title: string;
  run: () => Promise<Figure[]>;
}

export interface SectionsRun {
  results: Array<{ section: string } & Figure>;
  failed: Array<{ section: string; error: string }>;
}

/** Runs the sections whose title contains one of `only` (all when empty), one after another. */
export async function runSections(
  sections: Section[],
  only: string[],
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<SectionsRun> {
  const out: SectionsRun = { results: [], failed: [] };
  for (const s of sections) {
    if (only.length > 0 && !only.some((o) => s.title.toLowerCase().includes(o.toLowerCase()))) continue;
    log(`bench: ${s.title} ...`);
    const t0 = Date.now();
    const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
    try {
      for (const r of await s.run()) out.results.push({ section: s.title, ...r });
      log(`bench: ${s.title} done in ${took()}`);
    } catch (err) {
      const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
      out.failed.push({ section: s.title, error: (err instanceof Error ? err.message : text).split('\n')[0]! });
      log(`bench: ${s.title} FAILED after ${took()}\n${text}`);
    }
  }
  return out;
}
