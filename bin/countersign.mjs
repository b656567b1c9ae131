#!/usr/bin/env node
// @ts-check
// Launcher for the countersign CLI. In the source tree the TypeScript
// sources run through tsx's loader; a packaged build has no sources and runs
// the bundled dist/cli/countersign.mjs.
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
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../electron/cli/main.ts');
  await main();
}
