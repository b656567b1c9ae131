// The freshness rule of the CLI bundle (scripts/cli-bundle.mjs): a stamp of
// sizes and mtimes that any edit, removal or rename of an input breaks. The
// build itself runs before every suite (scripts/test.sh) and under every CLI
// test, which all start bin/countersign.mjs from it.
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BUNDLE, foreignProblem, freshCliBundle, isFresh, staleInput, stampOf } from './cli-bundle.mjs';
import { otherUser } from '../test/support/other-user';

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

  it("the bundle is kept private: 0700 folder, 0600 files, this user's own", async () => {
    await freshCliBundle();
    expect((await stat(join(CLI_BUNDLE, '..'))).mode & 0o777).toBe(0o700);
    for (const f of [CLI_BUNDLE, join(CLI_BUNDLE, '..', 'inputs.json')])
      expect((await stat(f)).mode & 0o777).toBe(0o600);
  });

  it('never trusts a file others may write, a link, or one another user owns (then it is built anew)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cs-cli-own-'));
    const file = join(dir, 'countersign.mjs');
    await writeFile(file, 'export {};\n', { mode: 0o600 });
    await expect(foreignProblem(file, false)).resolves.toBeUndefined();
    await chmod(file, 0o620);
    await expect(foreignProblem(file, false)).resolves.toMatch(/is writable by others \(mode 620\)$/);
    await chmod(file, 0o600);
    await symlink(file, join(dir, 'link.mjs'));
    await expect(foreignProblem(join(dir, 'link.mjs'), false)).resolves.toMatch(/is a symbolic link$/);
    await mkdir(join(dir, 'folder'), { mode: 0o700 });
    await expect(foreignProblem(join(dir, 'folder'), true)).resolves.toBeUndefined();
    await expect(foreignProblem(join(dir, 'folder'), false)).resolves.toMatch(/is not a file$/);
    const user = otherUser();
    if (typeof user === 'string') return console.warn(`skipped the other-user case: ${user}`);
    await chown(file, user.uid, user.gid);
    await expect(foreignProblem(file, false)).resolves.toBe(`${file} belongs to another user (uid ${user.uid})`);
  });
});
