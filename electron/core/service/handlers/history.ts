// The History domain of the host API: querying, exporting and verifying the
// journal, when the service keeps one.
import { exportFilename } from '../export-filename';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The History handlers over `ctx`. */
export function historyHandlers(ctx: HandlerContext) {
  return {
    queryHistory: (p) =>
      ctx.options.history ? ctx.options.history.query(p) : Promise.resolve({ total: 0, complete: true, entries: [] }),
    exportHistory: async (p) => {
      const exportLinks = ctx.exportLinks();
      if (exportLinks && ctx.options.history?.exportTo) {
        return { filename: exportFilename(p.format), url: exportLinks(p.filter, p.format) };
      }
      return ctx.options.history
        ? ctx.options.history.export(p.filter, p.format)
        : { data: '', filename: exportFilename(p.format) };
    },
    verifyHistory: async () => (await ctx.options.history?.verify?.()) ?? { ok: true, entries: 0 },
  } satisfies Partial<HandlerTable>;
}
