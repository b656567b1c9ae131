// The Passkeys domain of the host API: Settings lists, registers and revokes
// the data folder's passkeys. Registering opens Countersign's own ceremony
// page: in the system browser (the desktop app, through the private
// launcher), or in the person's tab from their click (the web shell).
import { HostError, messageOf } from '../../host-error';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Passkeys handlers over `ctx`. */
export function passkeyHandlers(ctx: HandlerContext) {
  const changed = async (registrationError?: string) =>
    ctx.events.emit('passkeysChanged', {
      passkeys: await ctx.passkeys.list(),
      ...(registrationError ? { registrationError } : {}),
    });
  return {
    listPasskeys: () => ctx.passkeys.list(),
    registerPasskey: async (p) => {
      const { url, done } = await ctx.passkeys.register(p.name);
      done.then(
        () => changed(),
        (e: unknown) => changed(`the passkey was not registered: ${messageOf(e)}`),
      );
      if (ctx.options.linkOpening === 'tab') return { opened: true, openHere: url };
      try {
        await ctx.options.openExternal(url);
      } catch (e) {
        throw new HostError('connection', `the registration page did not open: ${messageOf(e)}`);
      }
      return { opened: true };
    },
    revokePasskey: async (p) => {
      const passkeys = await ctx.passkeys.revoke(p.id).catch((e: unknown) => {
        throw new HostError('config', messageOf(e));
      });
      await changed();
      return passkeys;
    },
  } satisfies Partial<HandlerTable>;
}
