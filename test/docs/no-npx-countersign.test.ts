// No command in the docs runs code someone else could publish (issue 9, item
// 15): "countersign" is a private, unpublished package name, so
// `npx countersign …` outside the source checkout downloads whatever is
// published under that name. Every tracked Markdown file and the CLI's own
// usage text are searched for npx (or a config whose command is npx) naming it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const docs = execFileSync('git', ['ls-files', '*.md'], { cwd: repo, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.startsWith('node_modules/'));
const files = [...docs, 'electron/cli/gateway-command.ts', 'electron/cli/main.ts', 'electron/cli/web-command.ts'];

const PATTERNS = [
  // npx countersign, npx -y countersign, npx --yes countersign@1, npm exec countersign
  /\b(?:npx|npm\s+exec|pnpm\s+dlx|bunx)\s+(?:(?:-y|--yes|-p|--package(?:=\S+)?)\s+)*countersign\b/,
  // "command": "npx", "args": ["-y", "countersign", …] and command = "npx" / args = ["countersign", …]
  /["']?command["']?\s*[:=]\s*["']npx["'][\s\S]{0,120}?args["']?\s*[:=]\s*\[\s*(?:["']-y["']\s*,\s*)?["']countersign\b/,
];

describe('the docs never have npx fetch "countersign"', () => {
  it('searches the files it means to (README, docs/agents.md, the CLI usage)', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/agents.md']));
    // The guard can fail: it catches the old instruction.
    expect(PATTERNS[0]!.test('claude mcp add countersign -- npx countersign gateway')).toBe(true);
    expect(PATTERNS[1]!.test('"command": "npx",\n      "args": ["countersign", "gateway"]')).toBe(true);
    expect(PATTERNS[1]!.test('command = "npx"\nargs = ["countersign", "gateway"]')).toBe(true);
  });

  it.each(files)('%s', (file) => {
    const text = readFileSync(join(repo, file), 'utf8');
    const hits = PATTERNS.flatMap((p) => {
      const m = new RegExp(p.source, 'g');
      return [...text.matchAll(m)].map((x) => `${file}:${text.slice(0, x.index).split('\n').length}: ${x[0]}`);
    });
    expect(hits).toEqual([]);
  });
});
