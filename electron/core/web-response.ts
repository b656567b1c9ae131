// A web-standard Response (what the MCP SDK's HTTP transports return) written
// to a node:http response. The gateway's HTTP endpoint and the HTTP fixture
// servers both serve the SDK's handlers from node:http, so the bridge is
// written once.
import type { ServerResponse } from 'node:http';

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
