// The MCP Apps domain of the host API: a front end that frames a tool's app
// opens it, passes on the calls the app makes (to its own server only, on the
// host's ordinary call path), records what it reports, puts the links it asks
// to open to the person, and closes it. The rules live in apps/app-sessions.ts.
import { HostError } from '../../host-error';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The MCP Apps handlers over `ctx`. */
export function appHandlers(ctx: HandlerContext) {
  return {
    openApp: async (p) => ({ app: await ctx.apps.openFor(p.server, p.tool, p.callId) }),
    callAppTool: async (p) => ({ result: await ctx.apps.callTool(p.appId, p.tool, p.args) }),
    recordAppEvent: async (p) => ({ recorded: await ctx.apps.record(p.appId, p.event, p.text) }),
    openAppLink: (p) => ctx.apps.openLink(p.appId, p.url),
    closeApp: async (p) => ({ closed: ctx.apps.close(p.appId) }),
    openQuestionApp: async (p) => {
      if (!ctx.settings().appQuestions) throw new HostError('config', 'app-drawn questions are off (Settings)');
      const question = ctx.prompter.list().find((q) => q.id === p.questionId);
      if (!question) throw new HostError('config', 'that question is not waiting');
      return { app: await ctx.apps.openForQuestion(question) };
    },
  } satisfies Partial<HandlerTable>;
}
