// The README's "How it works" map names every folder of electron/core (issue 25
// item 7): a folder added without a line there fails here, and so does a line
// left for a folder that is gone.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** The code block under "## How it works". */
function map(): string {
  const section = readme.slice(readme.indexOf('## How it works'));
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block?.[1]) throw new Error('README.md: no code block under "## How it works"');
  return block[1];
}

describe("the README's map of the code", () => {
  it('gives every folder of electron/core a line of its own, and no folder that is gone', () => {
    const folders = readdirSync(join(repo, 'electron', 'core'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    // Lines such as "  approval/        the approval channel: …" under electron/core/.
    const named = [...map().matchAll(/^ {2}([a-z-]+)\/ +\S/gm)].map((m) => m[1]).sort();
    expect(named).toEqual(folders);
  });
});
