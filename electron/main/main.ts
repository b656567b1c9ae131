// Entry point of the Electron main process (bundled to dist/electron/main.cjs).
import { routeConsoleThroughRedaction } from '../core/console-redaction';
import { stderrLog } from '../core/terminal-output';
import { runMain } from './app-main';

// No library's console output reaches stdout or stderr unredacted or unescaped (console-redaction.ts).
routeConsoleThroughRedaction(stderrLog);

runMain().catch((e: unknown) => {
  stderrLog(`countersign: the app failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
