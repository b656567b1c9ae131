// The Node versions the README states are the ones package.json and the lock
// file say (issue 9, item 14's EBADENGINE note): engines.node for running,
// and exactly the packages whose engines want more named as the expected
// EBADENGINE warnings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const testScript = readFileSync(join(repo, 'scripts', 'test.sh'), 'utf8');

describe('Node versions in the README', () => {
  it('states the engines.node minimum of package.json', () => {
    const min = semver.minVersion(pkg.engines.node)!.version.replace(/\.0$/, '');
    expect(readme).toContain(`Node.js ${min}+`);
  });

  it('states the engines range itself, and the Node 24 that npm test runs is inside it and named', () => {
    expect(readme).toContain(`\`engines\` in package.json: \`${pkg.engines.node}\``);
    const node24 = /^NODE24_VERSION="(24\.\d+\.\d+)"$/m.exec(testScript)?.[1];
    expect(node24).toBeDefined();
    expect(semver.satisfies(node24!, pkg.engines.node)).toBe(true);
    expect(readme).toContain(`Node ${node24}`);
    // Supported: 22 (from 22.12, what Electron's tools declare) and 24; 20.19+ kept working.
    for (const v of ['20.19.0', '22.12.0', '24.0.0']) expect(semver.satisfies(v, pkg.engines.node), v).toBe(true);
  });

  it('names exactly the packages npm warns about (EBADENGINE) on that minimum', () => {
    const min = semver.minVersion(pkg.engines.node)!.version;
    const warned = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(min, (p.engines as { node: string }).node))
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(warned.length).toBeGreaterThan(0);
    const section = readme.slice(readme.indexOf('EBADENGINE'), readme.indexOf('EBADENGINE') + 400);
    for (const name of warned) expect(section, name).toContain(`\`${name}\``);
  });
});
