// The Sign-in domain of the host API: signing in to an HTTP server from the
// Servers view, and signing out.
import type { HostResults, ServerView } from '../../../../shared/host-api/contract';
import { HostError, isHostError, messageOf } from '../../host-error';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Sign-in handlers over `ctx`. */
export function signInHandlers(ctx: HandlerContext) {
  return {
    signIn: async (p) => startSignIn(ctx, p.server, p.scopes),
    signOut: (p) => forgetSignIn(ctx, p.server),
  } satisfies Partial<HandlerTable>;
}

/**
 * Sign in from the Servers view: the sign-in dialog joins the queue and
 * this returns at once; the outcome shows in the server's view (signed in,
 * or the failure in the host's words).
 */
function startSignIn(ctx: HandlerContext, server: string, scopes: string[] | undefined): ServerView[] {
  ctx.requireServer(server);
  const auth = ctx.host.serverAuth(server);
  if (!auth) throw new HostError('config', `server "${server}" is not an HTTP server that signs in with a browser`);
  ctx.signInErrors.delete(server);
  void auth.login(scopes).then(
    async () => {
      // The new token is used from the next request; reconnect so the view shows the server live.
      await ctx.host.disconnect(server);
      await ctx.connectQuietly(server);
    },
    async (e) => {
      if (!isHostError(e, 'auth') || e.details?.reason !== 'declined') ctx.signInErrors.set(server, messageOf(e));
      await ctx.refreshSignIn(server);
      ctx.emitServers();
    },
  );
  return ctx.serverViews();
}

async function forgetSignIn(ctx: HandlerContext, server: string): Promise<HostResults['signOut']> {
  ctx.requireServer(server);
  const auth = ctx.host.serverAuth(server);
  if (!auth) throw new HostError('config', `server "${server}" is not an HTTP server that signs in with a browser`);
  const outcome = await auth.signOut();
  ctx.signInErrors.delete(server);
  // The open connection still holds the old token: close it; the next use finds the server wants a sign-in.
  await ctx.host.disconnect(server);
  await ctx.connectQuietly(server);
  return { servers: ctx.serverViews(), ...outcome };
}
