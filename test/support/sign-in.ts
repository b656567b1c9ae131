// What the sign-in tests share: the real pair of servers a sign-in needs (the
// test authorization server, and a bearer-protected MCP server that trusts
// exactly the tokens it issued), and the "system browser" that loads a
// sign-in link and follows its redirect back to the loopback listener.
import {
  startProtectedServer,
  type ProtectedServer,
  type ProtectedServerOptions,
} from '../fixtures/oauth/protected-server';
import {
  startTestAuthorizationServer,
  type TestAs,
  type TestAsOptions,
} from '../fixtures/oauth/test-authorization-server';
import type { Cleanup } from './cleanups';

/** Load the link and follow its redirect to the loopback listener, as the system browser would. */
export async function followSignInLink(link: string): Promise<void> {
  const res = await fetch(link, { redirect: 'manual' });
  await res.text();
  const location = res.headers.get('location');
  if (!location) throw new Error(`no redirect from ${link}`);
  await (await fetch(new URL(location, link), { redirect: 'manual' })).text();
}

/** How the protected server is set up; its token check is always "issued by this authorization server". */
export type SignInServerOptions = Omit<ProtectedServerOptions, 'verify' | 'authorizationServers'> &
  Partial<Pick<ProtectedServerOptions, 'authorizationServers'>>;

/**
 * Starts the authorization server and the protected MCP server (its metadata
 * names that authorization server unless `options` says otherwise; options
 * may depend on the authorization server). Both close with the test's cleanups.
 */
export async function startSignInServers(
  cleanups: Cleanup[],
  asOptions: TestAsOptions = {},
  options: SignInServerOptions | ((as: TestAs) => SignInServerOptions) = {},
): Promise<{ as: TestAs; server: ProtectedServer }> {
  const as = await startTestAuthorizationServer(asOptions);
  cleanups.push(() => as.close());
  const server = await startProtectedServer({
    authorizationServers: () => [as.issuer],
    verify: async (t) => (as.tokens.has(t) ? { scopes: as.tokens.get(t)! } : undefined),
    ...(typeof options === 'function' ? options(as) : options),
  });
  cleanups.push(() => server.close());
  return { as, server };
}
