// Entry point of the Electron main process (bundled to dist/electron/main.cjs).
import { routeConsoleThroughRedaction } from '../core/console-redaction';
import { runMain } from './app-main';

// No library's console output reaches stdout or stderr unredacted (console-redaction.ts).
routeConsoleThroughRedaction((line) => process.stderr.write(`${line}\n`));

runMain().catch((e: unknown) => {
  process.stderr.write(
    `countersign: the app failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
