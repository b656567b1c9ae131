// Types of scripts/start-electron.mjs for its TypeScript test.
export interface StartDiagnosis {
  why: string;
  fix?: string;
  known: boolean;
}
/** How long a start is watched. */
export const START_WATCH_MS: number;
/** The known ways Electron fails to start on Linux. */
export const KNOWN_START_FAILURES: { test: RegExp; why: string; fix: string }[];
/** Why Electron did not start. */
export function diagnoseStartFailure(ended: {
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}): StartDiagnosis;
/** Run Electron and watch its start. */
export function runElectron(options: {
  electron: string;
  args: string[];
  watchMs?: number;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}): Promise<{ exitCode: number } | { fallback: StartDiagnosis }>;
