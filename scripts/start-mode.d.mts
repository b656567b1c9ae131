// Types of scripts/start-mode.mjs for its TypeScript test.
export type StartMode = { mode: 'electron'; electron: string; reason: string } | { mode: 'web'; reason: string };
export interface StartProbes {
  env: Record<string, string | undefined>;
  platform: string;
  electronBinary: () => string | undefined;
  fetchElectron: () => boolean;
}
/** The mode and why. */
export function chooseStartMode(probes: StartProbes): StartMode;
/** The Electron binary of node_modules/electron, if downloaded. */
export function installedElectron(dir?: string): string | undefined;
/** Why a download of Electron failed, in one line. */
export function downloadFailureLine(output: string): string;
