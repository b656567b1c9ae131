// The web shell's WebSocket wire protocol, shared by both ends: the server
// (electron/web/ws-bridge.ts, web-shell.ts) and the browser client
// (renderer/src/api/ws-host-api.ts). No dependencies, so the renderer and the
// sandboxed preload can import it.
//
//   client -> server  {"id": 1, "method": "listServers", "params": {}}
//   server -> client  {"id": 1, "result": [...]}
//                     {"id": 1, "error": {"message": "...", "code": "config", "details": {...}}}
//                     {"event": "questionAdded", "payload": {...}}
//   A frame the server cannot read gets {"id": null, "error": {...}} (or the id, when it could read one).

/** The path of the API socket. */
export const API_PATH = '/api';
/** The subprotocol the server selects; the client offers it first. */
export const WIRE_PROTOCOL = 'countersign.v1';
/** The client offers the token as a second subprotocol: this prefix plus the token. */
export const TOKEN_PROTOCOL_PREFIX = 'countersign.token.';
/** Largest frame accepted (an import of a big config file fits easily). */
export const MAX_FRAME_BYTES = 5 * 1024 * 1024;

export type RequestId = string | number;

export interface WireRequest {
  id: RequestId;
  method: string;
  params?: unknown;
}

/**
 * A refusal as it travels on every transport (WebSocket frame, Electron IPC
 * reply): one sentence for people, the host's stable error code, and
 * machine-readable details (for a server-config error: `server`, `field`,
 * `problem`), so a front end never has to read meaning out of the sentence.
 */
export interface WireError {
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

export type WireReply = { id: RequestId | null; result: unknown } | { id: RequestId | null; error: WireError };

export interface WireEvent {
  event: string;
  payload: unknown;
}

/** The wire form of anything thrown on the host side (code and details only when the error has them). */
export function toWireError(error: unknown, fallback = 'the host failed'): WireError {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : fallback;
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; details?: unknown };
  return {
    message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details)
      ? { details: e.details as Record<string, unknown> }
      : {}),
  };
}
