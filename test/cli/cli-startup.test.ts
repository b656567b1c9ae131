// `countersign --version` and `--help` answer without loading the host: no
// module of the core, no command's module and no MCP SDK (issue 22, item 5).
// Every module the real process resolves is recorded by a loader hook
// registered ahead of the launcher. The module graph is checked on the
// sources (COUNTERSIGN_CLI_SOURCES=1): the bundle bin/countersign.mjs runs
// by default keeps each dynamic import lazy (esbuild turns it into an init
// function run on first use), so what is lazy in the sources is lazy there;
// what the bundled start loads is checked apart.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';

const pkg = JSON.parse(readFileSync(join(BIN, '..', '..', 'package.json'), 'utf8')) as { version: string };

/** Runs bin/countersign.mjs with `argv`; its output and every module URL it loaded. */
function runRecorded(argv: string[], fromSources = true) {
  const dir = mkdtempSync(join(tmpdir(), 'cs-startup-'));
  const log = join(dir, 'loaded.txt');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}
`,
  );
  writeFileSync(log, '');
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, BIN, ...argv], {
    encoding: 'utf8',
    env: { ...process.env, COUNTERSIGN_CLI_SOURCES: fromSources ? '1' : '0' },
  });
  return { ...run, loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

// Two small core modules load up front, on purpose: console-redaction (the SDK's console output is redacted before
// any of it can run; node:util only) and terminal-output (the one writer of stdout and stderr, which io.ts prints
// through; shared/terminal-text only).
const HOST =
  /\/electron\/(core\/(?!console-redaction\.ts|terminal-output\.ts)|cli\/(?!main\.ts|io\.ts))|@modelcontextprotocol/;

describe('countersign --version and --help', () => {
  it('--version prints the package version from the launcher alone', () => {
    const run = runRecorded(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`countersign ${pkg.version}\n`);
    expect(run.loaded.filter((u) => !u.startsWith('node:'))).toEqual([pathToFileURL(BIN).href]);
  });

  it('--help prints the commands without loading any command, the core or the SDK', () => {
    const run = runRecorded(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('gateway    an MCP server for agents');
    expect(run.loaded.some((u) => u.endsWith('/electron/cli/main.ts'))).toBe(true); // the hook saw the CLI load
    expect(run.loaded.filter((u) => HOST.test(u))).toEqual([]);
  });

  it('a command still loads and runs its own module', () => {
    const run = runRecorded(['history', '--help']);
    expect(run.status).toBe(0);
    expect(run.loaded.some((u) => u.endsWith('/electron/cli/history-command.ts'))).toBe(true);
  });

  it('from the bundle, --help loads the launcher, the freshness check and the one bundle file only', () => {
    const run = runRecorded(['--help'], false);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('gateway    an MCP server for agents');
    const ours = run.loaded.filter((u) => !u.startsWith('node:'));
    expect(ours).toEqual([
      pathToFileURL(BIN).href,
      pathToFileURL(join(BIN, '..', '..', 'scripts', 'cli-bundle.mjs')).href,
      pathToFileURL(join(BIN, '..', '..', '.cache', 'cli', 'countersign.mjs')).href,
    ]);
  });
});
