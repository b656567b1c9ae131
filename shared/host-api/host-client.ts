// The one generic client of the host API, in the spirit of VS Code's
// ProxyChannel.toService: the method and event names come from the contract
// (names.ts), every transport is a small adapter that moves a request and
// brings back a result or a WireError, and this module does the rest the same
// way for all of them — one function per method, `on` with name checks,
// listeners isolated from each other, errors rebuilt with `code` and `details`.
// Used by the Electron preload (IPC) and the web client (WebSocket). No zod:
// the sandboxed preload bundles this file.
import type { HostApi, HostMethodName } from './contract';
import { HOST_EVENT_NAMES, HOST_METHOD_NAMES } from './names';
import type { WireError } from './wire';

/** What a transport provides. */
export interface HostTransport {
  /** Sends one request; resolves with the result, rejects with a HostApiError (see errorFromWire). */
  request(method: HostMethodName, params: unknown): Promise<unknown>;
  /** Starts delivering the host's events to `emit` (called once, by createHostClient). */
  listen(emit: (event: string, payload: unknown) => void): void;
}

/** An error the host answered with: its message is meant for people; `code` and `details` for code. */
export class HostApiError extends Error {
  override readonly name = 'HostApiError';
  constructor(
    message: string,
    readonly code?: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
  }
}

/** Rebuilds a HostApiError from what a transport received as the error (anything: it came over a wire). */
export function errorFromWire(error: unknown, fallback = 'the host refused the request'): HostApiError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Partial<Record<keyof WireError, unknown>>;
  const details =
    typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details)
      ? Object.freeze({ ...(e.details as Record<string, unknown>) })
      : undefined;
  return new HostApiError(
    typeof e.message === 'string' ? e.message : fallback,
    typeof e.code === 'string' ? e.code : undefined,
    details,
  );
}

const eventNames: ReadonlySet<string> = new Set(HOST_EVENT_NAMES);

/** The HostApi over `transport`: exactly the contract's methods plus `on`. */
export function createHostClient(transport: HostTransport): HostApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  transport.listen((event, payload) => {
    if (!eventNames.has(event)) return;
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch {
        // One broken view must not stop the others from hearing the event.
      }
    }
  });

  const client: Record<string, unknown> = {};
  for (const method of HOST_METHOD_NAMES) {
    client[method] = (params: unknown) => transport.request(method, params);
  }
  client.on = (event: unknown, listener: unknown): (() => void) => {
    if (typeof event !== 'string' || !eventNames.has(event))
      throw new Error(`unknown host event ${JSON.stringify(String(event))}`);
    if (typeof listener !== 'function') throw new Error('the listener must be a function');
    const fn = listener as (payload: unknown) => void;
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => void set.delete(fn);
  };
  // The one cast of the client (this file is a named cast helper in eslint.config.mjs): the loop above
  // installed every name in HOST_METHOD_NAMES, which contract.ts proves equal to the HostApi's methods,
  // and the parity test (test/architecture/host-api-parity.test.ts) checks every transport's keys.
  return client as unknown as HostApi;
}

/** The names a client built here exposes: the contract's methods and `on` (the parity test compares). */
export const HOST_CLIENT_KEYS: readonly string[] = [...HOST_METHOD_NAMES, 'on'];
