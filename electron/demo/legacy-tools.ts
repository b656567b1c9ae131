// The same demo tools served the 2025 way (protocol 2025-11-25): after the
// `initialize` handshake the tool handler itself sends `elicitation/create`
// requests to the client and waits for the answers. URL mode carries an
// `elicitationId`, and once the consent page saw "Authorize" the server
// sends `notifications/elicitation/complete` for it.
import { randomUUID } from 'node:crypto';
import { McpServer, type ElicitResult, type ServerContext } from '@modelcontextprotocol/server';
import { bookingSchema, parseBooking, summariseBooking } from './booking-form';
import * as spec from './tool-specs';
import { checkedAs } from '../../shared/checked-as';

/** A human answers at human pace: far above the SDK's 60 s request default. */
const QUESTION_TIMEOUT_MS = 10 * 60_000;

/** A 2025-era demo server (one per connection). */
export function buildLegacyDemo(deps: spec.DemoDeps): McpServer {
  const server = new McpServer(spec.DEMO_INFO, { capabilities: { tools: {} }, instructions: spec.DEMO_INSTRUCTIONS });

  const askForm = (ctx: ServerContext, message: string, requestedSchema: unknown): Promise<ElicitResult> =>
    ctx.mcpReq.elicitInput(
      { mode: 'form', message, requestedSchema: checkedAs(requestedSchema) },
      { timeout: QUESTION_TIMEOUT_MS, signal: ctx.mcpReq.signal },
    );

  server.registerTool(
    'delete_time_entry',
    {
      title: 'Delete time entry',
      description: 'Deletes a time sheet entry after the human confirms.',
      inputSchema: spec.deleteArgs,
      annotations: { destructiveHint: true },
    },
    async ({ entryId }, ctx) => {
      const answer = await askForm(ctx, spec.deleteQuestion(entryId), spec.confirmOnly);
      return spec.text(spec.deleteOutcome(answer.action, entryId));
    },
  );

  server.registerTool(
    'book_time',
    {
      title: 'Book time',
      description: 'Books a time sheet entry; the human reviews and edits the whole entry first.',
      inputSchema: spec.bookArgs,
    },
    async (args, ctx) => {
      const prefill = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
      const answer = await askForm(ctx, spec.BOOK_QUESTION, bookingSchema(prefill));
      if (answer.action !== 'accept') return spec.text(spec.refused(answer.action, 'nothing was booked'));
      const checked = parseBooking(answer.content);
      if (!checked.ok) return spec.toolError(`The booking was not saved: ${checked.problem}`);
      return spec.text(summariseBooking(checked.booking));
    },
  );

  server.registerTool(
    'deploy',
    {
      title: 'Deploy a service',
      description: 'Deploys a service. Asks for the plan, and for production a second, final confirmation.',
      inputSchema: spec.deployArgs,
      annotations: { destructiveHint: true },
    },
    async ({ service, environment }, ctx) => {
      const first = await askForm(ctx, spec.deployPlanQuestion(service), spec.deployPlanSchema(environment));
      if (first.action !== 'accept') return spec.text(spec.refused(first.action, 'nothing was deployed'));
      const plan = spec.deployPlan.safeParse(first.content ?? {});
      if (!plan.success)
        return spec.toolError(`The deployment plan is invalid: ${plan.error.issues.map((i) => i.message).join('; ')}`);
      if (plan.data.environment !== 'production') return spec.text(spec.deployDone(service, plan.data));
      const second = await askForm(ctx, spec.deployFinalQuestion(service), spec.confirmOnly);
      if (second.action !== 'accept') return spec.text(spec.deployFinalRefused(second.action, service));
      return spec.text(spec.deployDone(service, plan.data));
    },
  );

  server.registerTool(
    'connect_calendar',
    {
      title: 'Connect a calendar',
      description: 'Connects a calendar through a consent page in the browser (URL mode).',
      inputSchema: spec.calendarArgs,
    },
    async ({ calendar }, ctx) => {
      const session = await deps.consent.create(spec.calendarPurpose(calendar));
      const elicitationId = randomUUID();
      const answer = await ctx.mcpReq.elicitInput(
        { mode: 'url', message: spec.calendarQuestion(calendar), url: session.url, elicitationId },
        { timeout: QUESTION_TIMEOUT_MS, signal: ctx.mcpReq.signal },
      );
      if (answer.action !== 'accept') return spec.text(spec.refused(answer.action, spec.calendarNotConnected));
      // "accept" means the link was opened; wait for the page, then tell the client the interaction is complete.
      const authorized = await deps.consent.waitForAuthorization(session.id, deps.legacyUrlWaitMs, ctx.mcpReq.signal);
      if (!authorized) {
        const minutes = Math.round(deps.legacyUrlWaitMs / 6000) / 10;
        return spec.text(
          `Not connected: the Demo Calendar saw no authorization within ${minutes} min, so ${spec.calendarNotConnected}.`,
        );
      }
      await server.server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: ctx.mcpReq.id })();
      return spec.text(spec.calendarConnected(calendar));
    },
  );

  spec.registerPlainTools(server);
  return server;
}
