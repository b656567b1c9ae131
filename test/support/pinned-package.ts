// A third-party npm package the tests run as it is published (an agent, an
// example server), installed once per version into the git-ignored
// .cache/pinned/<name>@<version>/, a folder of its own so that npm never
// touches the project's own dependencies.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The installed package's folder (installing it from the npm registry first if it is not there). */
export function pinnedPackage(name: string, version: string): string {
  const dir = join(repo, '.cache', 'pinned', `${name.replace('/', '+')}@${version}`);
  const pkgDir = join(dir, 'node_modules', ...name.split('/'));
  const installed = () =>
    existsSync(join(pkgDir, 'package.json')) &&
    (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version?: string }).version === version;
  if (installed()) return pkgDir;
  // Code the tests run as this user: a folder only this user may write.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'countersign-pinned', private: true }) + '\n');
  // Settings inherited from an enclosing `npm test` must not redirect this install.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  process.stderr.write(`tests: installing ${name}@${version} from the npm registry into ${dir}\n`);
  execFileSync(
    'npm',
    ['install', '--prefix', dir, '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`],
    { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (!installed()) throw new Error(`npm did not install ${name}@${version} into ${dir}`);
  return pkgDir;
}
