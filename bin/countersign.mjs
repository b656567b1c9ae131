#!/usr/bin/env node
// Launcher for the countersign CLI. In the source tree the TypeScript
// sources run through tsx's loader; a packaged build has no sources and runs
// the bundled dist/cli/countersign.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
