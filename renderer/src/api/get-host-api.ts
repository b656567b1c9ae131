// The seam between the renderer and its host. Components never touch a
// transport: they are handed the HostApi this returns.
// - In Electron, the preload exposes the API as `window.countersign`.
// - In the loopback web shell, a WebSocket client speaks to the shell with
//   the per-run token from the page address (see ./ws-host-api.ts).
import type { HostApi } from '../../../shared/host-api/contract';
import { HOST_METHOD_NAMES } from '../../../shared/host-api/names';
import { apiUrlFromLocation, createWsHostApi, tokenFromLocation } from './ws-host-api';

/** What `getHostApi` looks at; a parameter so tests can pass a fake window. */
export interface HostApiEnvironment {
  countersign?: unknown;
  location?: { protocol: string; host: string; pathname?: string; hash?: string; search?: string };
  /** To drop the token from the address once read. */
  history?: { replaceState(data: unknown, unused: string, url?: string): void };
  /** Keeps the token for reloads of this tab only (per origin, per tab; gone with the tab). */
  sessionStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

const TOKEN_KEY = 'countersign.token';

/**
 * The token, taken out of the address: the address bar, the history list and
 * anything that reads location.href (a screenshot, a pasted link) must not
 * carry the key to the session. A reload finds it in sessionStorage.
 */
function takeToken(env: HostApiEnvironment, location: NonNullable<HostApiEnvironment['location']>): string | null {
  const fromAddress = tokenFromLocation(location);
  if (fromAddress) {
    try {
      env.sessionStorage?.setItem(TOKEN_KEY, fromAddress);
    } catch {
      // Storage off: the tab works until it is reloaded.
    }
    const search = new URLSearchParams((location.search ?? '').replace(/^\?/, ''));
    search.delete('token');
    const rest = search.toString();
    env.history?.replaceState(null, '', `${location.pathname ?? '/'}${rest ? `?${rest}` : ''}`);
    return fromAddress;
  }
  try {
    const kept = env.sessionStorage?.getItem(TOKEN_KEY) ?? null;
    return kept && tokenFromLocation({ hash: `#token=${kept}` });
  } catch {
    return null;
  }
}

// The app frame calls every method, so a preload object must have them all.
// The names come from names.ts, not the contract, whose zod schemas the
// renderer bundle does not need (the host validates every call anyway).
const USED_METHODS = HOST_METHOD_NAMES;

/** True when `value` has `on` and every HostApi method the renderer uses. */
export function isHostApi(value: unknown): value is HostApi {
  if (typeof value !== 'object' || value === null) return false;
  const api = value as Record<string, unknown>;
  return typeof api.on === 'function' && USED_METHODS.every((m) => typeof api[m] === 'function');
}

/** The page was opened without the per-run token (a typed or bookmarked address, a link copied without #token=…). */
export class MissingTokenError extends Error {
  constructor() {
    super('no host: the page address carries no access token; open the link that `countersign web` printed');
    this.name = 'MissingTokenError';
  }
}

/** The HostApi for this window: the Electron preload's if present, else a WebSocket client to the web shell. */
export function getHostApi(env: HostApiEnvironment = window): HostApi {
  if (env.countersign !== undefined) {
    if (!isHostApi(env.countersign)) throw new Error('window.countersign is not a complete HostApi');
    return env.countersign;
  }
  const location = env.location;
  if (!location || (location.protocol !== 'http:' && location.protocol !== 'https:')) {
    throw new Error('no host: neither the Electron preload nor a web shell origin is available');
  }
  const token = takeToken(env, location);
  if (!token) throw new MissingTokenError();
  return createWsHostApi(apiUrlFromLocation(location), token);
}
