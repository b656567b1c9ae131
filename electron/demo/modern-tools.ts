// The demo tools served the 2026-07-28 way: every question is an
// `input_required` result (Multi Round-Trip Request). What the server must
// remember between rounds travels in `requestState`, HMAC-signed with a
// per-process key and verified by the SDK before the handler runs; the
// handler still checks that the state belongs to this tool and these
// arguments, so a state cannot be replayed on another call.
import { randomBytes } from 'node:crypto';
import {
  McpServer,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { bookingSchema } from './booking-form';
import * as spec from './tool-specs';
import { vouchedAs } from '../../shared/vouched-as';

type FlowState =
  | { tool: 'delete_time_entry'; entryId: number }
  | { tool: 'book_time' }
  | { tool: 'deploy'; step: 1; service: string }
  | { tool: 'deploy'; step: 2; service: string; plan: spec.DeployPlan }
  | { tool: 'connect_calendar'; session: string; calendar: string; attempt: number };

/** Reads the elicitation answer for `key`, or undefined when the retry carried none. */
function answerOf(
  ctx: ServerContext,
  key: string,
): { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  return view.kind === 'elicit' ? view : undefined;
}

const noAnswer = (key: string) => spec.toolError(`The retry carried no answer for "${key}"; nothing was done.`);
const foreignState = (tool: string) =>
  spec.toolError(`The requestState of this retry does not belong to this ${tool} call; nothing was done.`);

/** A 2026-07-28 demo server (one per connection). */
export function buildModernDemo(deps: spec.DemoDeps, stateKey: Uint8Array = randomBytes(32)): McpServer {
  // One stdio process serves every round of a flow, so a per-process key is enough.
  const codec = createRequestStateCodec<FlowState>({
    key: stateKey,
    ttlSeconds: 900,
    bind: (ctx) => ctx.mcpReq.method,
  });
  const server = new McpServer(spec.DEMO_INFO, {
    capabilities: { tools: {} },
    instructions: spec.DEMO_INSTRUCTIONS,
    requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
  });
  const state = (ctx: ServerContext) => ctx.mcpReq.requestState<FlowState>();
  const mint = (payload: FlowState, ctx: ServerContext) => codec.mint(payload, ctx);

  server.registerTool('delete_time_entry', spec.deleteTool, async ({ entryId }, ctx) => {
    const s = state(ctx);
    if (!s) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: spec.deleteQuestion(entryId), requestedSchema: spec.confirmOnly }),
        },
        requestState: await mint({ tool: 'delete_time_entry', entryId }, ctx),
      });
    }
    if (s.tool !== 'delete_time_entry' || s.entryId !== entryId) return foreignState('delete_time_entry');
    const answer = answerOf(ctx, 'confirm');
    if (!answer) return noAnswer('confirm');
    return spec.text(spec.deleteOutcome(answer.action, entryId));
  });

  server.registerTool('book_time', spec.bookTool, async (args, ctx) => {
    const s = state(ctx);
    if (!s) {
      return inputRequired({
        inputRequests: {
          booking: inputRequired.elicit({
            message: spec.BOOK_QUESTION,
            // A flat form schema with its literal types widened; the receiving host's checkFlatSchema checks it
            // (demo-server.test.ts drives this form through the real Host).
            requestedSchema: vouchedAs(bookingSchema(spec.bookingPrefill(args))),
          }),
        },
        requestState: await mint({ tool: 'book_time' }, ctx),
      });
    }
    if (s.tool !== 'book_time') return foreignState('book_time');
    const answer = answerOf(ctx, 'booking');
    if (!answer) return noAnswer('booking');
    return spec.bookingOutcome(answer);
  });

  server.registerTool('deploy', spec.deployTool, async ({ service, environment }, ctx) => {
    const s = state(ctx);
    if (!s) {
      return inputRequired({
        inputRequests: {
          plan: inputRequired.elicit({
            message: spec.deployPlanQuestion(service),
            // A flat form schema with its literal types widened; the receiving host's checkFlatSchema checks it
            // (demo-server.test.ts drives this form through the real Host).
            requestedSchema: vouchedAs(spec.deployPlanSchema(environment)),
          }),
        },
        requestState: await mint({ tool: 'deploy', step: 1, service }, ctx),
      });
    }
    if (s.tool !== 'deploy' || s.service !== service) return foreignState('deploy');
    if (s.step === 1) {
      const answer = answerOf(ctx, 'plan');
      if (!answer) return noAnswer('plan');
      const next = spec.deployPlanOutcome(answer, service);
      if ('result' in next) return next.result;
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: spec.deployFinalQuestion(service),
            requestedSchema: spec.confirmOnly,
          }),
        },
        requestState: await mint({ tool: 'deploy', step: 2, service, plan: next.confirm }, ctx),
      });
    }
    const answer = answerOf(ctx, 'confirm');
    if (!answer) return noAnswer('confirm');
    return spec.deployFinalOutcome(answer.action, service, s.plan);
  });

  server.registerTool('connect_calendar', spec.calendarTool, async ({ calendar }, ctx) => {
    const s = state(ctx);
    const ask = async (message: string, session: { id: string; url: string }, attempt: number) =>
      inputRequired({
        inputRequests: { authorize: inputRequired.elicitUrl({ message, url: session.url }) },
        requestState: await mint({ tool: 'connect_calendar', session: session.id, calendar, attempt }, ctx),
      });
    if (!s) return ask(spec.calendarQuestion(calendar), await deps.consent.create(spec.calendarPurpose(calendar)), 1);
    if (s.tool !== 'connect_calendar' || s.calendar !== calendar) return foreignState('connect_calendar');
    const answer = answerOf(ctx, 'authorize');
    if (!answer) return noAnswer('authorize');
    if (answer.action !== 'accept') return spec.text(spec.refused(answer.action, spec.calendarNotConnected));
    // "accept" only means the link was opened; the consent page tells whether the user finished.
    if (await deps.consent.waitForAuthorization(s.session, deps.urlWaitMs, ctx.mcpReq.signal))
      return spec.text(spec.calendarConnected(calendar));
    const status = deps.consent.status(s.session);
    if (!status)
      return ask(
        spec.calendarQuestion(calendar),
        await deps.consent.create(spec.calendarPurpose(calendar)),
        s.attempt + 1,
      );
    return ask(spec.calendarAgain(calendar), { id: s.session, url: deps.consent.urlOf(s.session) }, s.attempt + 1);
  });

  spec.registerPlainTools(server);
  return server;
}
