// A web-standard Response (what the MCP SDK's HTTP transports return) written
// to a node:http response, and a node:http request's headers as web Headers
// (what they take). The gateway's HTTP endpoint and the HTTP fixture servers
// both serve the SDK's handlers from node:http, so the bridge is written once.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** A node:http request's headers as web Headers, each value of a repeated header appended. */
export function webHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/**
 * Writes status, headers and body, chunk by chunk as the body yields them,
 * so SSE frames reach the client as soon as they are produced; stops reading
 * once the client has gone away.
 */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      res.write(value);
    }
  } finally {
    reader.releaseLock();
    res.end();
  }
}
