// The Settings domain of the host API: reading the settings and changing
// them (applied to the host and the journal at once, then saved).
import { join } from 'node:path';
import type { Settings } from '../../../../shared/host-api/contract';
import { saveSettings } from '../settings-store';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Settings handlers over `ctx`. */
export function settingsHandlers(ctx: HandlerContext) {
  return {
    getSettings: async () => ctx.settings(),
    updateSettings: (p) => applySettings(ctx, p),
  } satisfies Partial<HandlerTable>;
}

async function applySettings(ctx: HandlerContext, patch: Partial<Settings>): Promise<Settings> {
  ctx.setSettings({ ...ctx.settings(), ...patch });
  ctx.host.maxRounds = ctx.settings().maxRounds;
  ctx.host.questionTimeLimitMinutes = ctx.settings().questionTimeLimitMinutes;
  ctx.options.history?.setRedact(ctx.settings().redactHistory);
  await saveSettings(join(ctx.options.dataDir, 'settings.json'), ctx.settings());
  ctx.events.emit('settingsChanged', ctx.settings());
  return ctx.settings();
}
