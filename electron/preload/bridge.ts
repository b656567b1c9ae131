// The object the preload exposes as `window.countersign`: one function per
// host method (from HOST_METHOD_NAMES, so it cannot drift from the contract)
// plus `on` for the host's events. Nothing of Electron leaks through: no
// ipcRenderer, no IpcRendererEvent, no channel the page can choose.
// Imports only names.ts (no zod): a sandboxed preload is one bundled file.
import type { HostApi } from '../../shared/host-api/contract';
import { EVENT_CHANNEL, HOST_EVENT_NAMES, HOST_METHOD_NAMES, INVOKE_CHANNEL } from '../../shared/host-api/names';

/** ipcRenderer, as far as the bridge uses it. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const eventNames: ReadonlySet<string> = new Set(HOST_EVENT_NAMES);

// Main answers every invoke with { ok, value } or { ok: false, error } (see electron/main/ipc.ts).
function unwrap(reply: unknown): unknown {
  if (typeof reply === 'object' && reply !== null) {
    const r = reply as { ok?: unknown; value?: unknown; error?: { message?: unknown } };
    if (r.ok === true) return r.value;
    if (r.ok === false)
      throw new Error(typeof r.error?.message === 'string' ? r.error.message : 'the host refused the request');
  }
  throw new Error('the host sent a malformed reply');
}

/** Builds the HostApi over IPC. */
export function createHostBridge(ipc: IpcRendererLike): HostApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  ipc.on(EVENT_CHANNEL, (_event, name, payload) => {
    if (typeof name !== 'string' || !eventNames.has(name)) return;
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch {
        // One broken view must not stop the others from hearing the event.
      }
    }
  });

  const api: Record<string, unknown> = {};
  for (const method of HOST_METHOD_NAMES) {
    api[method] = async (params: unknown) => unwrap(await ipc.invoke(INVOKE_CHANNEL, method, params));
  }
  api.on = (event: unknown, listener: unknown): (() => void) => {
    if (typeof event !== 'string' || !eventNames.has(event))
      throw new Error(`unknown host event ${JSON.stringify(String(event))}`);
    if (typeof listener !== 'function') throw new Error('the listener must be a function');
    const fn = listener as (payload: unknown) => void;
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => void set.delete(fn);
  };
  // eslint-disable-next-line no-restricted-syntax -- goes with the generic host client (issue 14 §2)
  return Object.freeze(api) as unknown as HostApi;
}
