// Types of scripts/cli-bundle.mjs for the TypeScript that imports it (its test).
export interface Stamp {
  files: Record<string, [number, number]>;
}
export const CLI_BUNDLE: string;
export function staleInput(stamp: Stamp, base: string): Promise<string | undefined>;
export function stampOf(files: string[], base: string): Promise<Stamp>;
export function foreignProblem(path: string, folder: boolean): Promise<string | undefined>;
export function isFresh(): Promise<boolean>;
export function buildCliBundle(): Promise<void>;
export function freshCliBundle(): Promise<string>;
