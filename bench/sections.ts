// The bench runner's loop over its sections, apart from bench/run.ts so that its rules are
// tested: each section runs in a process of its own, after the previous section's writes are on
// disk, and a section that fails is reported while the others still run.
//
// Why a process each: measured on this 2-core machine, the gateway section run after the history
// sections in the same process gave 1.31–1.39 × the bare relay with 2–3 × the CPU per call in the
// middle processes, against 1.18–1.25 × run alone. In one process a section inherits the earlier
// sections' heap and JIT state, and the kernel may still be writing their files back; the three
// were not told apart, and a process each after `sync` removes all of them. A full run takes
// minutes; one failure (Chromium missing, a fixture that would not start) should not lose every
// figure.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** What a failure is reported as: the first line of its message (a Playwright message runs on for a page). */
const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
/** What the log shows of it: the stack where there is one. */
const fullText = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));

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
      out.failed.push({ section: s.title, error: firstLine(err) });
      log(`bench: ${s.title} FAILED after ${took()}\n${fullText(err)}`);
    }
  }
  return out;
}

/** In the section's own process: runs it and writes its figures, or the first line of its error, to `out`. */
export async function runOneSection(section: Section, out: string): Promise<void> {
  try {
    writeFileSync(out, JSON.stringify({ figures: await section.run() }));
  } catch (err) {
    process.stderr.write(`${fullText(err)}\n`);
    writeFileSync(out, JSON.stringify({ error: firstLine(err) }));
    process.exitCode = 1;
  }
}

/**
 * The same section run in a fresh process: `script` (this runner) is started with this process's
 * Node flags (tsx's loader) and `--section <title> --out <file>`, and writes the figures to the
 * file. Before it starts, `sync` puts the previous sections' writes on disk.
 */
export function inOwnProcess(script: string, title: string): Section {
  return {
    title,
    run: async () => {
      try {
        execFileSync('sync');
      } catch {
        /* no sync(1) on this system: the section starts without it */
      }
      const dir = mkdtempSync(join(tmpdir(), 'countersign-bench-'));
      const out = join(dir, 'figures.json');
      try {
        const child = spawn(process.execPath, [...process.execArgv, script, '--section', title, '--out', out], {
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        const code = await new Promise<number | null>((resolve, reject) => {
          child.once('error', reject);
          child.once('exit', (c, signal) => resolve(signal ? null : c));
        });
        let written: { figures?: Figure[]; error?: string } = {};
        try {
          written = JSON.parse(readFileSync(out, 'utf8')) as typeof written;
        } catch {
          /* nothing written: the process died before the end of the section */
        }
        if (written.error !== undefined) throw new Error(written.error);
        if (code !== 0 || !written.figures) throw new Error(`the section's process exited with ${code ?? 'a signal'}`);
        return written.figures;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
