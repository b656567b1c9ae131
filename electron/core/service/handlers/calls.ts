// The Calls domain of the host API: a tool call started from the app, its
// progress told in callUpdated events, and cancelling it.
import { randomUUID } from 'node:crypto';
import type { CallView } from '../../../../shared/host-api/contract';
import { HostError, isHostError, messageOf } from '../../host-error';
import type { CallAnswers } from '../call-answers';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The calls the app started that still run. */
export class RunningCalls {
  /** Calls still running. An ended call is dropped at once: its result went out in the callUpdated event. */
  private readonly calls = new Map<string, CallView>();
  private readonly calling = new Map<string, AbortController>();

  constructor(
    private readonly ctx: HandlerContext,
    private readonly answers: CallAnswers,
  ) {}

  /** How many calls are running (ended ones are not kept). */
  get size(): number {
    return this.calls.size;
  }

  /** The callTool and cancelCall handlers. */
  handlers() {
    return {
      callTool: async (p) => ({ callId: this.start(p.server, p.tool, p.args) }),
      cancelCall: async (p) => ({ cancelled: this.cancel(p.callId) }),
    } satisfies Partial<HandlerTable>;
  }

  /** Abort every running call with `reason`. */
  abortAll(reason: HostError): void {
    for (const c of this.calling.values()) c.abort(reason);
  }

  private start(server: string, tool: string, args: Record<string, unknown>): string {
    this.ctx.requireServer(server);
    const callId = randomUUID();
    const controller = new AbortController();
    this.calling.set(callId, controller);
    const update = (view: CallView) => {
      // Keeping ended calls kept every result (tool results run to megabytes) for the life of the app.
      if (view.state === 'running') this.calls.set(callId, view);
      else this.calls.delete(callId);
      this.ctx.events.emit('callUpdated', view);
    };
    update({ callId, server, tool, state: 'running' });
    void this.ctx.host
      .call({ server, method: 'tools/call', name: tool, arguments: args, signal: controller.signal, callId })
      .then(
        ({ result }) => {
          const lastAnswer = this.answers.forCall(callId);
          update({ callId, server, tool, state: 'complete', result, ...(lastAnswer ? { lastAnswer } : {}) });
        },
        (error) =>
          update({
            callId,
            server,
            tool,
            // A task cancelled from the Tasks view ends its call as cancelled too.
            state: controller.signal.aborted || isHostError(error, 'cancelled') ? 'cancelled' : 'error',
            error: messageOf(error),
          }),
      )
      .finally(() => this.calling.delete(callId));
    return callId;
  }

  private cancel(callId: string): boolean {
    const c = this.calling.get(callId);
    if (!c) return false;
    c.abort(new HostError('cancelled', 'the call was cancelled by the user'));
    return true;
  }
}
