// The freshness rule of the CLI bundle (scripts/cli-bundle.mjs): a stamp of
// sizes and mtimes that any edit, removal or rename of an input breaks. The
// build itself runs before every suite (scripts/test.sh) and under every CLI
// test, which all start bin/countersign.mjs from it.
import { mkdtemp, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BUNDLE, freshCliBundle, isFresh, staleInput, stampOf } from './cli-bundle.mjs';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the CLI bundle is never stale', () => {
  it('a stamp holds until an input changes, is touched, renamed or removed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cs-cli-stamp-'));
    await writeFile(join(dir, 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(dir, 'b.ts'), 'export const b = 2;\n');
    const past = new Date(Date.now() - 60_000);
    await utimes(join(dir, 'a.ts'), past, past);
    await utimes(join(dir, 'b.ts'), past, past);
    const stamp = await stampOf(['a.ts', 'b.ts'], dir);
    await expect(staleInput(stamp, dir)).resolves.toBeUndefined();

    // The same size, a new mtime (an editor's save, a checkout).
    await writeFile(join(dir, 'a.ts'), 'export const a = 3;\n');
    await expect(staleInput(stamp, dir)).resolves.toBe('a.ts');
    await expect(staleInput(await stampOf(['a.ts', 'b.ts'], dir), dir)).resolves.toBeUndefined();

    // Touched only.
    const fresh = await stampOf(['a.ts', 'b.ts'], dir);
    await utimes(join(dir, 'b.ts'), new Date(), new Date(Date.now() + 5_000));
    await expect(staleInput(fresh, dir)).resolves.toBe('b.ts');

    // Renamed away (an import now points elsewhere) or removed.
    const again = await stampOf(['a.ts', 'b.ts'], dir);
    await rename(join(dir, 'a.ts'), join(dir, 'c.ts'));
    await expect(staleInput(again, dir)).resolves.toBe('a.ts');
  });

  it('the bundle is fresh once built, and its stamp lists the sources it was built from and how', async () => {
    // scripts/test.sh built it before the suites; a direct vitest run may build it here.
    await freshCliBundle();
    await expect(isFresh()).resolves.toBe(true);
    const stamp = JSON.parse(await readFile(join(CLI_BUNDLE, '..', 'inputs.json'), 'utf8')) as {
      files: Record<string, unknown>;
    };
    expect(Object.keys(stamp.files)).toEqual(
      expect.arrayContaining([
        'electron/cli/main.ts',
        'electron/core/host.ts',
        'scripts/cli-bundle.mjs',
        'package-lock.json',
      ]),
    );
    expect(Object.keys(stamp.files).some((f) => f.includes('node_modules'))).toBe(false);
  });
});
