// Issue 14 §3: a few facts are defined once and imported everywhere else. A
// literal copy type-checks and passes every behaviour test until the day the
// two drift apart (the CLI's `task` command kept its own `maxRounds: 10`),
// so this test looks for the copies in the production sources themselves.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Production sources (no tests, test helpers or fixtures), repo-relative. */
function production(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (['node_modules', 'dist', 'testing', 'fixtures'].includes(name)) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') && name !== 'harness.tsx')
        out.push(relative(root, p));
    }
  };
  for (const dir of ['shared', 'electron', 'renderer/src']) walk(join(root, dir));
  return out;
}

const files = production();
const text = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));

/** `file:line: text` for every line of the production sources that matches. */
function lines(pattern: RegExp, except: string[] = []): string[] {
  const found: string[] = [];
  for (const [file, body] of text) {
    if (except.includes(file)) continue;
    body.split('\n').forEach((line, i) => {
      if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('defined once (issue 14 §3)', () => {
  it('reads the production sources it checks', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('shared/round-limit.ts');
    expect(files).toContain('electron/cli/task-command.ts');
  });

  it('the round limit: no number for a default or bound outside shared/round-limit.ts', () => {
    const copy = /\bmaxRounds\s*[:=]\s*\d|\b\w*ROUNDS\s*=\s*\d/;
    // It would see a copy: it matches the forms such copies took.
    expect(['      maxRounds: 10,', 'const MAX_ROUNDS = 100;', 'maxRounds = 10'].every((l) => copy.test(l))).toBe(true);
    expect(lines(copy, ['shared/round-limit.ts'])).toEqual([]);
  });

  it('DecidedBy, CallOutcome and ServerEntry are each declared in one file', () => {
    for (const name of ['DecidedBy', 'CallOutcome', 'ServerEntry', 'StdioServerEntry', 'HttpServerEntry']) {
      const declared = lines(new RegExp(`^\\s*export\\s+(type|interface)\\s+${name}\\b(?!\\s*[,}])`));
      expect(declared, name).toHaveLength(1);
    }
  });

  it('the CSP: its three deliveries build it from shared/csp.ts and write no directive themselves', () => {
    for (const file of ['electron/main/csp.ts', 'electron/web/static-files.ts', 'vite.config.ts']) {
      const body = readFileSync(join(root, file), 'utf8');
      expect(body, file).toMatch(/from '(\.\.\/)*(\.\/)?shared\/csp'/);
      expect(body.match(/['"`](default|script|style|img|connect|font|object)-src\b/g), file).toBeNull();
    }
    for (const page of readdirSync(join(root, 'renderer')).filter((n) => n.endsWith('.html')))
      expect(readFileSync(join(root, 'renderer', page), 'utf8'), page).not.toMatch(/-src\s/);
  });

  it('the files the single definitions replaced are gone', () => {
    for (const gone of ['renderer/src/state/history-types.ts', 'electron/web/wire.ts'])
      expect(() => statSync(join(root, gone)), gone).toThrow();
  });
});
