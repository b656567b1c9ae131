// Flag helpers the long-running commands (`web`, `gateway`) share.
import { HostError } from '../core/host-error';

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
