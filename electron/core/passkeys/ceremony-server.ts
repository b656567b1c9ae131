// The loopback server of the ceremony page. It listens on 127.0.0.1 (an
// address, so nothing else on the network can reach it), but the page is
// served only to requests for localhost:PORT: WebAuthn never accepts an IP
// address as a relying party, and the verifier pins http://localhost:PORT,
// port included, because every local app shares the name localhost. Each
// ceremony has an unguessable token and ends with the first result posted.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { ApprovalVerifier } from './approval-verifier';
import { CEREMONY_CSP, CEREMONY_CSS, CEREMONY_HTML, CEREMONY_JS } from './ceremony-page';
import { canonicalJson, type ApprovalPayload } from './payload';
import type { PasskeyRecord, PasskeyStore } from './passkey-store';
import { finishRegistration, registrationOptions } from './registration';
import { ceremonyOrigin, readAssertion, toResponseJson } from './signed-payload';

const MAX_BODY = 64 * 1024;

type Pending =
  | {
      kind: 'approve';
      payloadText: string;
      allowCredentials: string[];
      resolve(r: AuthenticationResponseJSON): void;
      reject(e: unknown): void;
    }
  | {
      kind: 'register';
      name: string;
      options: PublicKeyCredentialCreationOptionsJSON;
      resolve(p: PasskeyRecord): void;
      reject(e: unknown): void;
    };

/** A ceremony the person completes in a browser at `url`. */
export interface Ceremony<T> {
  url: string;
  /** Settles when the page posted its result (for an approval: the raw assertion, still to be verified). */
  result: Promise<T>;
  /** The person left (cancelled, the call ended): the page is gone, and a late result is refused. */
  abandon(): void;
}

/** The running ceremony server. */
export interface CeremonyServer {
  port: number;
  /** http://localhost:PORT */
  origin: string;
  /** Issues payloads for this origin and verifies the assertions made for them. */
  verifier: ApprovalVerifier;
  /** A registration ceremony for a passkey named `name`; resolves once it is stored. */
  register(name: string): Promise<Ceremony<PasskeyRecord>>;
  /** An approval ceremony for a payload the verifier issued. */
  approve(payload: ApprovalPayload): Ceremony<AuthenticationResponseJSON>;
  close(): Promise<void>;
}

/** Options of startCeremonyServer. */
export interface CeremonyServerOptions {
  store: PasskeyStore;
  /** 0 (default): a free port. */
  port?: number;
  now?: () => number;
}

function reply(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'content-type': type,
    'content-security-policy': CEREMONY_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'cross-origin-resource-policy': 'same-origin',
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('the result is too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Start the ceremony server on 127.0.0.1, serving pages for http://localhost:PORT only. */
export async function startCeremonyServer(options: CeremonyServerOptions): Promise<CeremonyServer> {
  const pending = new Map<string, Pending>();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = ceremonyOrigin(port);
  const verifier = new ApprovalVerifier(options.store, origin, options.now);

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, 'text/plain; charset=utf-8', 'The ceremony failed.');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.host !== `localhost:${port}`)
      return reply(
        res,
        421,
        'text/plain; charset=utf-8',
        `This page is valid only at ${origin}: a passkey cannot be used at an IP address or another name.`,
      );
    const path = new URL(req.url ?? '/', origin).pathname;
    if (req.method === 'GET' && path === '/ceremony.js')
      return reply(res, 200, 'text/javascript; charset=utf-8', CEREMONY_JS);
    if (req.method === 'GET' && path === '/ceremony.css')
      return reply(res, 200, 'text/css; charset=utf-8', CEREMONY_CSS);
    const match = /^\/ceremony\/([A-Za-z0-9_-]{43})(\/data|\/result)?$/.exec(path);
    const ceremony = match ? pending.get(match[1]!) : undefined;
    if (!match || !ceremony)
      return reply(res, 404, 'text/plain; charset=utf-8', 'No such ceremony: it ended, or it never began.');
    if (req.method === 'GET' && match[2] === undefined)
      return reply(res, 200, 'text/html; charset=utf-8', CEREMONY_HTML);
    if (req.method === 'GET' && match[2] === '/data')
      return reply(
        res,
        200,
        'application/json',
        JSON.stringify(
          ceremony.kind === 'approve'
            ? { kind: 'approve', payloadText: ceremony.payloadText, allowCredentials: ceremony.allowCredentials }
            : { kind: 'register', name: ceremony.name, options: ceremony.options },
        ),
      );
    if (req.method === 'POST' && match[2] === '/result') {
      // A page of another local origin could post here; only ours may end the ceremony.
      if (req.headers.origin !== origin)
        return reply(res, 403, 'application/json', JSON.stringify({ ok: false, message: 'Wrong origin.' }));
      pending.delete(match[1]!);
      let body: unknown;
      try {
        body = await readBody(req);
      } catch {
        body = undefined;
      }
      if (ceremony.kind === 'approve') {
        let assertion: AuthenticationResponseJSON;
        try {
          assertion = toResponseJson(readAssertion(body));
        } catch (e) {
          ceremony.reject(e);
          const message = e instanceof Error ? e.message : String(e);
          return reply(res, 200, 'application/json', JSON.stringify({ ok: false, message }));
        }
        ceremony.resolve(assertion);
        return reply(
          res,
          200,
          'application/json',
          JSON.stringify({ ok: true, message: 'Signed. Countersign checks it against the call before sending it.' }),
        );
      }
      try {
        const passkey = await finishRegistration(
          options.store,
          origin,
          ceremony.name,
          ceremony.options,
          body,
          (options.now ?? Date.now)(),
        );
        ceremony.resolve(passkey);
        return reply(res, 200, 'application/json', JSON.stringify({ ok: true, message: 'Passkey registered.' }));
      } catch (e) {
        ceremony.reject(e);
        const message = e instanceof Error ? e.message : String(e);
        return reply(res, 200, 'application/json', JSON.stringify({ ok: false, message }));
      }
    }
    return reply(res, 405, 'text/plain; charset=utf-8', 'Not allowed.');
  }

  const newToken = () => randomBytes(32).toString('base64url');
  return {
    port,
    origin,
    verifier,
    async register(name) {
      const opts = await registrationOptions(options.store, name);
      const token = newToken();
      const result = new Promise<PasskeyRecord>((resolve, reject) =>
        pending.set(token, { kind: 'register', name, options: opts, resolve, reject }),
      );
      // A refusal is the caller's to read whenever it awaits; until then it is not an unhandled rejection.
      result.catch(() => undefined);
      return { url: `${origin}/ceremony/${token}`, result, abandon: () => pending.delete(token) };
    },
    approve(payload) {
      const token = newToken();
      const allowCredentials = options.store
        .list()
        .filter((p) => !p.revoked)
        .map((p) => p.id);
      const result = new Promise<AuthenticationResponseJSON>((resolve, reject) =>
        pending.set(token, { kind: 'approve', payloadText: canonicalJson(payload), allowCredentials, resolve, reject }),
      );
      result.catch(() => undefined);
      return { url: `${origin}/ceremony/${token}`, result, abandon: () => pending.delete(token) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
