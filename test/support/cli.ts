// The CLI as the tests run it: in-process (runCli with a data folder of the
// test's own, every stdout and stderr write kept) or as the real process,
// bin/countersign.mjs, whose output is read as it arrives.
import { spawn, type ChildProcessWithoutNullStreams, type StdioPipe } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../electron/cli/main';

/** The CLI's entry script. */
export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'countersign.mjs');

/** Runs the CLI in-process with COUNTERSIGN_DATA_DIR=dataDir: its exit code and each write, in order. */
export async function runCliIn(
  dataDir: string,
  argv: string[],
): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, {
    stdout: (t) => void stdout.push(t),
    stderr: (t) => void stderr.push(t),
    env: { ...process.env, COUNTERSIGN_DATA_DIR: dataDir },
  });
  return { code, stdout, stderr };
}

/** A running bin/countersign.mjs. */
export interface BinProcess {
  child: ChildProcessWithoutNullStreams;
  /** All it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Its exit code (null: killed by a signal); rejects when it could not be started. */
  exited: Promise<number | null>;
}

/** Starts bin/countersign.mjs with COUNTERSIGN_DATA_DIR=dataDir. */
export function startBin(argv: string[], dataDir: string, stdin: StdioPipe | 'ignore' = 'pipe'): BinProcess {
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { ...process.env, COUNTERSIGN_DATA_DIR: dataDir },
    stdio: [stdin, 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}
