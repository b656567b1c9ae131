// The web shell's WebSocket wire protocol, server side. The browser client
// (renderer/src/api/ws-host-api.ts) keeps its own copy of these constants
// because the renderer imports nothing from electron/; the web shell test
// runs that client against this server, so the two cannot drift unnoticed.
//
//   client -> server  {"id": 1, "method": "listServers", "params": {}}
//   server -> client  {"id": 1, "result": [...]}
//                     {"id": 1, "error": {"message": "...", "code": "protocol"}}
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

export type WireReply =
  { id: RequestId | null; result: unknown } | { id: RequestId | null; error: { message: string; code?: string } };

export interface WireEvent {
  event: string;
  payload: unknown;
}
