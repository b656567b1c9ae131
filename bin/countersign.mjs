#!/usr/bin/env node
// @ts-check
// Launcher for the countersign CLI. In the source tree it runs a bundle of
// the sources that is rebuilt whenever they change (.cache/cli, see
// scripts/cli-bundle.mjs); a packaged build has no sources and runs the
// bundled dist/cli/countersign.mjs.
//
// First of all, before any import is evaluated: on plain Node, SIGUSR1 opens
// the inspector on 127.0.0.1:9229, reachable by every user on the machine,
// and anyone attached can read the web shell's token or the gateway's secrets
// out of the heap. `--disable-sigusr1` exists only from Node 22.14; a
// listener does the same on every supported Node (20 and 22, tested by
// test/web/sigusr1.test.ts): with a JavaScript listener installed, Node no
// longer starts the inspector on the signal. Kept for the process's lifetime.
process.on('SIGUSR1', () => {
  process.stderr.write('countersign: ignored SIGUSR1 (the inspector stays off)\n');
});

const { existsSync, readFileSync } = await import('node:fs');
const { fileURLToPath, pathToFileURL } = await import('node:url');

// The version, from the package.json beside this launcher, before any
// TypeScript is compiled or any of the host is loaded.
if (process.argv.length === 3 && process.argv[2] === '--version') {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`countersign ${pkg.version}\n`);
  process.exit(0);
}

const source = fileURLToPath(new URL('../electron/cli/main.ts', import.meta.url));
const bundled = fileURLToPath(new URL('../dist/cli/countersign.mjs', import.meta.url));
if (!existsSync(source) && existsSync(bundled)) {
  const { main } = await import(pathToFileURL(bundled).href);
  await main();
} else {
  // The source tree: a bundle in .cache/cli, rebuilt when a source changed (scripts/cli-bundle.mjs); the
  // sources through tsx (about three times slower to start) if it cannot be built, or with
  // COUNTERSIGN_CLI_SOURCES=1 (to debug the sources themselves).
  /** @type {string | undefined} */
  let bundle;
  if (process.env.COUNTERSIGN_CLI_SOURCES !== '1')
    try {
      const { freshCliBundle } = await import('../scripts/cli-bundle.mjs');
      bundle = await freshCliBundle();
    } catch (e) {
      process.stderr.write(
        `countersign: running the sources through tsx (the CLI bundle could not be built: ${
          e instanceof Error ? e.message.split('\n')[0] : String(e)
        })\n`,
      );
    }
  if (bundle) {
    const { main } = await import(bundle);
    await main();
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    const { main } = await import('../electron/cli/main.ts');
    await main();
  }
}
