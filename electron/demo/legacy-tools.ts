// The same demo tools served the 2025 way (protocol 2025-11-25): after the
// `initialize` handshake the tool handler itself sends `elicitation/create`
// requests to the client and waits for the answers. URL mode carries an
// `elicitationId`, and once the consent page saw "Authorize" the server
// sends `notifications/elicitation/complete` for it.
import { randomUUID } from 'node:crypto';
import { McpServer, type ElicitResult, type ServerContext } from '@modelcontextprotocol/server';
import { bookingSchema } from './booking-form';
import * as spec from './tool-specs';
import { vouchedAs } from '../../shared/vouched-as';

/** A human answers at human pace: far above the SDK's 60 s request default. */
const QUESTION_TIMEOUT_MS = 10 * 60_000;

/** A 2025-era demo server (one per connection). */
export function buildLegacyDemo(deps: spec.DemoDeps): McpServer {
  const server = new McpServer(spec.DEMO_INFO, { capabilities: { tools: {} }, instructions: spec.DEMO_INSTRUCTIONS });

  // requestedSchema is one of the demo's flat form schemas; the receiving host's checkFlatSchema checks it
  // (demo-server.test.ts drives every form through the real Host).
  const askForm = (ctx: ServerContext, message: string, requestedSchema: unknown): Promise<ElicitResult> =>
    ctx.mcpReq.elicitInput(
      { mode: 'form', message, requestedSchema: vouchedAs(requestedSchema) },
      { timeout: QUESTION_TIMEOUT_MS, signal: ctx.mcpReq.signal },
    );

  server.registerTool('delete_time_entry', spec.deleteTool, async ({ entryId }, ctx) => {
    const answer = await askForm(ctx, spec.deleteQuestion(entryId), spec.confirmOnly);
    return spec.text(spec.deleteOutcome(answer.action, entryId));
  });

  server.registerTool('book_time', spec.bookTool, async (args, ctx) =>
    spec.bookingOutcome(await askForm(ctx, spec.BOOK_QUESTION, bookingSchema(spec.bookingPrefill(args)))),
  );

  server.registerTool('deploy', spec.deployTool, async ({ service, environment }, ctx) => {
    const first = await askForm(ctx, spec.deployPlanQuestion(service), spec.deployPlanSchema(environment));
    const next = spec.deployPlanOutcome(first, service);
    if ('result' in next) return next.result;
    const second = await askForm(ctx, spec.deployFinalQuestion(service), spec.confirmOnly);
    return spec.deployFinalOutcome(second.action, service, next.confirm);
  });

  server.registerTool('connect_calendar', spec.calendarTool, async ({ calendar }, ctx) => {
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
  });

  spec.registerPlainTools(server);
  return server;
}
