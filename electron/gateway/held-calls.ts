// Calls a 2026-07-28 agent is waiting on while the human decides, held
// between two of the agent's requests.
//
// Agents give each request a fixed time (the SDK 2.x client: 60 s; MCP
// Inspector's CLI the same), and a person may take minutes. An agent of
// that era that does not use tasks still follows the protocol's multi
// round-trip rule: a result `{ resultType: "input_required", requestState }`
// with no `inputRequests` makes it repeat the request with that state, and
// each repeat is a new request with a new timer. So before the agent's timer
// can run out, the gateway ends the agent's request with such a result and
// keeps the call running here; the repeat picks it up again
// (agent-server.ts, keep-alive legs).
//
// The state the agent holds is the gateway's own: a random handle to a call
// in this process, bound to the agent connection that started it and to
// what it called. It carries nothing of the call, the question or the
// server's own requestState (which never leaves the Host). A handle is used
// once; each leg gets a new one.
//
// An agent that does not come back (its round cap ran out, it crashed, it
// was stopped) would leave the call waiting for nobody, and an answer the
// person gives then would act with no agent to hear of it. So a held call
// that is not picked up within the grace time is cancelled, and the reason
// is named in the history. This timer runs only between two requests of an
// agent (normally a quarter of a second apart), never against the person.
import { randomBytes } from 'node:crypto';
import { HostError } from '../core/host-error';

export interface HeldCall {
  /** The agent connection that started the call: only it may pick the call up again. */
  readonly owner: string;
  /** What was called (method and the gateway's name): a repeat must name the same. */
  readonly target: string;
  readonly callId: string;
  /** Ends the call: its questions are withdrawn, with the reason. */
  readonly controller: AbortController;
  /** The agent's result, or the ProtocolError to answer with. */
  readonly running: Promise<unknown>;
  /** Told when a question opens or the server's task changes (set by the leg waiting now). */
  onChange: () => void;
}

/**
 * What a held call is for, as both paths name it (the fast path holds, the
 * SDK path resumes): a repeat must name the same method and tool.
 */
export function heldTarget(method: string, name: string): string {
  return `${method} ${name}`;
}

/** Why a held call the agent did not come back for ended. */
export function agentGoneReason(graceMs: number): HostError {
  return new HostError(
    'cancelled',
    `the agent stopped waiting: it did not repeat its request within ${Math.round(graceMs / 1000)} s`,
  );
}

export class HeldCalls {
  private readonly held = new Map<string, { call: HeldCall; timer: NodeJS.Timeout }>();

  constructor(private readonly graceMs: number) {}

  /** Keep `call` for its agent's next request; returns the handle the agent echoes as its requestState. */
  hold(call: HeldCall): string {
    const handle = `cs1.${randomBytes(18).toString('base64url')}`;
    const timer = setTimeout(() => {
      if (this.held.delete(handle)) call.controller.abort(agentGoneReason(this.graceMs));
    }, this.graceMs);
    timer.unref();
    this.held.set(handle, { call, timer });
    return handle;
  }

  /**
   * The call `handle` stands for, taken out of the hold, when `owner` holds
   * it and names the same target; otherwise undefined, and nothing changes
   * (a wrong guess from one connection cannot end another's call).
   */
  take(handle: string, owner: string, target: string): HeldCall | undefined {
    const entry = this.held.get(handle);
    if (!entry || entry.call.owner !== owner || entry.call.target !== target) return undefined;
    clearTimeout(entry.timer);
    this.held.delete(handle);
    return entry.call;
  }

  /** How many calls are held now. */
  get size(): number {
    return this.held.size;
  }

  /** Cancel every held call (the gateway is closing). */
  close(reason: HostError): void {
    for (const { call, timer } of this.held.values()) {
      clearTimeout(timer);
      call.controller.abort(reason);
    }
    this.held.clear();
  }
}

/**
 * When a request of a call is due to be ended with a keep-alive: `ms` after
 * the request began, once the call has asked the human (a server that is
 * merely slow is the agent's own timeout's business). `changed()` is called
 * when a question opens or the task changes; the timer is made only then, so
 * a call that asks nothing (most of them) costs no timer. `stop()` ends it.
 */
export function keepAliveDue(ms: number, asked: () => boolean): { due: Promise<void>; changed(): void; stop(): void } {
  const began = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let fire!: () => void;
  const due = new Promise<void>((resolve) => (fire = resolve));
  return {
    due,
    changed: () => {
      if (timer || stopped || !asked()) return;
      timer = setTimeout(fire, Math.max(0, began + ms - Date.now()));
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
