// Entry point of the Electron main process (bundled to dist/electron/main.cjs).
import { runMain } from './app-main';

runMain().catch((e: unknown) => {
  process.stderr.write(
    `countersign: the app failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
