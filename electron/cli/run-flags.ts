// Flag helpers the long-running commands (`web`, `gateway`) share.
import { HostError, messageOf } from '../core/host-error';
import { errorLine, type CliIo } from './io';

/** `--port`: 0 (any free port) when absent, else 0..65535. */
export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new HostError('config', `--port must be a port number from 0 to 65535, not ${JSON.stringify(value)}`);
  return n;
}

/** Resolves when `signal` aborts (Ctrl-C, SIGTERM); never without one. */
export function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((done) => signal.addEventListener('abort', () => done(), { once: true }));
}

/**
 * Parses a command's flags with `parse` (which throws on a bad one): a bad
 * flag prints the error and the usage to stderr (exit 2); `--help` prints the
 * usage (exit 0) to `helpTo`, stderr for a command whose stdout is not the
 * user's. Returns what `parse` returned, or the exit code to stop with.
 */
export function parseCommandFlags<T extends { values: { help?: boolean | undefined } }>(
  io: CliIo,
  usage: string,
  parse: () => T,
  helpTo: 'stdout' | 'stderr' = 'stdout',
): T | number {
  let parsed: T;
  try {
    parsed = parse();
  } catch (error) {
    io.stderr(`${errorLine(messageOf(error))}\n${usage}`);
    return 2;
  }
  if (!parsed.values.help) return parsed;
  if (helpTo === 'stderr') io.stderr(usage);
  else io.stdout(usage);
  return 0;
}
