// The redirect target of a sign-in (RFC 8252 §7.3): an HTTP listener on
// 127.0.0.1 (an address, never the name "localhost", which may resolve
// elsewhere) that takes exactly ONE callback request carrying this sign-in's
// `state`, answers with a small page and closes. Any local program (any
// user's) can reach the port: a callback without the state is answered with
// a neutral page, reported as a fault (a few per sign-in, however many come)
// and otherwise ignored, so it can neither end the sign-in nor finish it.
// Its timeout only starts when the human has consented and the browser was
// opened (`arm`): no timer runs while a human decides.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostError } from '../host-error';

export const CALLBACK_PATH = '/callback';

/** What came back on the redirect. Only ever held in memory. */
export interface AuthorizationCallback {
  code: string;
  /** The `iss` parameter (RFC 9207), when the authorization server sent one. */
  iss?: string;
}

export interface LoopbackListener {
  /** The redirect URI to register and send: http://127.0.0.1:<port>/callback */
  readonly redirectUrl: string;
  /**
   * Start waiting for the callback; settles once (code, refusal, timeout or
   * abort). `onFault` hears of callbacks without the expected state (at most
   * MAX_STRAY_FAULTS of them; the rest are only answered).
   */
  arm(
    expectedState: string,
    timeoutMs: number,
    signal?: AbortSignal,
    onFault?: (message: string) => void,
  ): Promise<AuthorizationCallback>;
  close(): Promise<void>;
}

/** Stray callbacks reported per sign-in: a flood of them costs a counter, not a history. */
export const MAX_STRAY_FAULTS = 3;

const PAGE_STYLE =
  'body{font:16px system-ui,sans-serif;max-width:32em;margin:4em auto;padding:0 1em;color:#1b1b1b}h1{font-size:1.3em}';

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
    `<style>${PAGE_STYLE}</style></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page needs nothing: no script, no frame, no referrer carrying the code.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  });
  res.end(body);
}

/** Bind the listener (port 0 = ephemeral). Fails clearly when a configured port is taken. */
export async function openLoopbackListener(port = 0): Promise<LoopbackListener> {
  let onRequest: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || !onRequest) {
      // Not the callback (a favicon, a probe): does not use up the one request.
      page(res, 404, 'Not found', 'This address only receives a sign-in redirect.');
      return;
    }
    const handler = onRequest;
    onRequest = undefined;
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new HostError(
          'auth',
          e.code === 'EADDRINUSE'
            ? `cannot receive the sign-in: port ${port} on 127.0.0.1 is in use (the server's "oauth.redirectPort")`
            : `cannot open the sign-in listener on 127.0.0.1: ${e.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${address.port}${CALLBACK_PATH}`;
  let closed = false;
  const close = () =>
    new Promise<void>((resolve) => {
      if (closed) return resolve();
      closed = true;
      onRequest = undefined;
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    redirectUrl,
    close,
    arm(expectedState, timeoutMs, signal, onFault) {
      return new Promise<AuthorizationCallback>((resolve, reject) => {
        const finish = (error: HostError | undefined, value?: AuthorizationCallback) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          // Close after the page went out; the listener takes one request only.
          setImmediate(() => void close());
          if (error) reject(error);
          else resolve(value!);
        };
        const onAbort = () => finish(new HostError('cancelled', 'the sign-in was cancelled'));
        const timer = setTimeout(
          () =>
            finish(
              new HostError(
                'auth',
                `the sign-in did not come back within ${Math.round(timeoutMs / 1000)} s after the browser was opened`,
              ),
            ),
          timeoutMs,
        );
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        let strays = 0;
        const callback = (req: IncomingMessage, res: ServerResponse) => {
          const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
          // State first: a response we did not ask for is refused before
          // anything in it (an error text included) is looked at. It does not
          // end the sign-in: the human's browser may still be on its way.
          if (q.get('state') !== expectedState) {
            page(res, 400, 'Sign-in refused', 'This response does not belong to a sign-in Countersign started.');
            onRequest = callback;
            strays++;
            if (strays <= MAX_STRAY_FAULTS)
              onFault?.(
                'ignored a sign-in response without the state Countersign sent (another program on this computer?)' +
                  (strays === MAX_STRAY_FAULTS
                    ? '; further ones during this sign-in are ignored without a record'
                    : ''),
              );
            return;
          }
          const code = q.get('code');
          const iss = q.get('iss') ?? undefined;
          if (!code) {
            const error = q.get('error') ?? '';
            page(res, 200, 'Sign-in not completed', 'You can close this tab and return to Countersign.');
            // Only a registered-looking error code is repeated; the free
            // text an authorization server adds is never shown.
            const named = /^[a-z_]{1,40}$/.test(error) ? ` (${error})` : '';
            return finish(
              new HostError('auth', `the authorization server did not grant the sign-in${named}`, {
                reason: error === 'access_denied' ? 'declined' : 'failed',
                ...(iss !== undefined ? { iss } : {}),
              }),
            );
          }
          page(res, 200, 'Signed in', 'Signed in. You can close this tab and return to Countersign.');
          finish(undefined, { code, ...(iss !== undefined ? { iss } : {}) });
        };
        onRequest = callback;
      });
    },
  };
}
