// A delay that ends early, with a cancellation error, when the call is cancelled.
import { HostError } from '../host-error';

/** Wait `ms`, or reject with a `cancelled` HostError when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new HostError('cancelled', 'the call was cancelled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new HostError('cancelled', 'the call was cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
