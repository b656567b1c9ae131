// The object the preload exposes as `window.countersign`: the one generic
// host client (shared/host-api/host-client.ts) over Electron IPC, so it has
// exactly the contract's methods plus `on`. Nothing of Electron leaks
// through: no ipcRenderer, no IpcRendererEvent, no channel the page can choose.
// Imports no zod: a sandboxed preload is one bundled file.
import type { HostApi } from '../../shared/host-api/contract';
import { createHostClient, errorFromWire } from '../../shared/host-api/host-client';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/host-api/names';

/** ipcRenderer, as far as the bridge uses it. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

// Main answers every invoke with { ok, value } or { ok: false, error: WireError } (see electron/main/ipc.ts).
function unwrap(reply: unknown): unknown {
  if (typeof reply === 'object' && reply !== null) {
    const r = reply as { ok?: unknown; value?: unknown; error?: unknown };
    if (r.ok === true) return r.value;
    if (r.ok === false) throw errorFromWire(r.error);
  }
  throw errorFromWire({ message: 'the host sent a malformed reply', code: 'protocol' });
}

/** Builds the HostApi over IPC. */
export function createHostBridge(ipc: IpcRendererLike): HostApi {
  return Object.freeze(
    createHostClient({
      request: async (method, params) => unwrap(await ipc.invoke(INVOKE_CHANNEL, method, params)),
      listen: (emit) => {
        ipc.on(EVENT_CHANNEL, (_event, name, payload) => {
          if (typeof name === 'string') emit(name, payload);
        });
      },
    }),
  );
}
