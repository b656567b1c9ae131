// Running one call to its end: a tools/call, prompts/get or resources/read
// through the input-required loop (modern) or the legacy attempts, on into a
// task when the server makes it one, with the end told to the observer the
// same way whatever happened.
import { randomUUID } from 'node:crypto';
import type { CallMethod, ToolHints } from '../../../shared/elicitation/types';
import { signInCallContext } from '../auth/server-auth';
import { runInputRequiredLoop } from '../calls/input-required-loop';
import { runLegacyCall } from '../calls/legacy-call';
import { paramHeaders } from '../calls/param-headers';
import type { ServerConnection } from '../connection/server-connection';
import type { CallContext, CallOutcome, HostObserver } from '../events';
import { HostError, isHostError, messageOf } from '../host-error';
import type { QuestionAsker } from '../prompter/question-gate';
import type { TaskManager } from '../tasks/task-manager';
import { legacyTaskOf, sendLegacyTaskCall, taskOps } from '../tasks/task-ops';
import { parseTask, type TaskSnapshot, type TaskStatus } from '../tasks/task-types';
import type { ServerConnections } from './connections';
import type { LiveCall, ServerSlot } from './server-slot';

export interface CallRequest {
  server: string;
  method: CallMethod;
  /** tools/call: tool name; prompts/get: prompt name; resources/read: URI. */
  name: string;
  /** tools/call and prompts/get arguments. */
  arguments?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The agent connection that caused the call (gateway). */
  agent?: string;
  callId?: string;
  /** Run as a task where the tool allows it (legacy taskSupport "optional"): the call is known to be long. */
  preferTask?: boolean;
  /** When the call becomes a task, remember it and return at once instead of following it. */
  detach?: boolean;
  /**
   * Told the final result of a call that completed without becoming a task,
   * the moment it is known: before its questions are withdrawn and before the
   * observer hears of the end (whose bookkeeping the promise then waits for).
   * The gateway answers its agent here, so the agent never waits for the
   * Host's end-of-call work. It must not throw.
   */
  onResult?(result: Record<string, unknown>): void;
}

export interface CallResult {
  call: CallContext;
  result: Record<string, unknown>;
  rounds: number;
  /** Set when the call became a task. */
  task?: { taskId: string; status: TaskStatus; detached: boolean };
}

/** How calls run (the Host's options of the same names). */
export interface CallRunOptions {
  /** The round-limit error's advice in the front end's words (the app names Settings). Default: the CLI's flag. */
  roundLimitAdvice?: string;
  /** First pause before re-sending a state-only round. Default 250 ms. */
  pacingDelayMs?: number;
  /**
   * The server's time per request (one leg, or one legacy attempt), never
   * counting a human deciding a question. Default: the SDK's 60 s.
   */
  requestTimeoutMs?: number;
  /** The ttl asked for legacy task-augmented calls. Default 1 h. */
  taskTtlMs?: number;
}

/** What a call runs on: the host's connections, gate, observer and tasks. */
export interface CallRunnerDeps {
  connections: ServerConnections;
  gate: QuestionAsker;
  observer: HostObserver;
  tasks: TaskManager;
  options: CallRunOptions;
  /** Input rounds per call before it ends with a round-limit error, as the host has it now. */
  maxRounds(): number;
  /**
   * Whether a tool's hints must be known before it is called (Settings → Passkeys asks for a passkey on tools the
   * server marks destructive): a server not listed yet is then listed first, so a script cannot slip past it.
   */
  needsToolHints?(): boolean;
}

/** The abort reason that withdraws a call's open questions when the call ends. */
export function callEndedReason(why: string): HostError {
  // Made once per call and read only for its code and message: a stack
  // trace is never read and costs (docs/gateway-profile.md).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new HostError('cancelled', `the call ended (${why})`, { callEnded: true });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The called tool's hints for its CallContext (tools/call only), as a spread. */
function toolHintsFor(slot: ServerSlot, request: { method: CallMethod; name: string }): { toolHints?: ToolHints } {
  const hints = request.method === 'tools/call' ? slot.toolHints.get(request.name) : undefined;
  return hints ? { toolHints: hints } : {};
}

/** Runs the host's calls. */
export class CallRunner {
  constructor(private readonly deps: CallRunnerDeps) {}

  /** Run a tools/call, prompts/get or resources/read to its final result. */
  call(request: CallRequest): Promise<CallResult> {
    // Only an HTTP server signs in. For a stdio one the context is skipped:
    // an AsyncLocalStorage in use puts a hook on every promise in the
    // process (measured in the gateway bench, docs/gateway-profile.md).
    if (!this.deps.connections.serverAuth(request.server)) return this.runCall(request);
    // A sign-in this call runs into names the call in its dialog and history.
    return signInCallContext.run(
      {
        method: request.method,
        name: request.name,
        ...(request.agent ? { agent: request.agent } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      },
      () => this.runCall(request),
    );
  }

  /**
   * The end of a call that completed, told as every call's is. Not async: it
   * hands back the observer's own answer, so awaiting it is awaiting that
   * (no extra promise per call).
   */
  private callCompleted(context: CallContext, result: Record<string, unknown>, rounds: number): void | Promise<void> {
    return this.deps.observer.callEnded?.({
      call: context,
      outcome: 'complete',
      isError: result.isError === true,
      rounds,
      endedAt: new Date().toISOString(),
    });
  }

  /** The end of a call that failed, told as every call's is (a round-limit is also a fault). */
  private async callFailed(context: CallContext, failure: unknown, rounds: number): Promise<void> {
    const outcome: CallOutcome = isHostError(failure, 'round-limit')
      ? 'round-limit'
      : isHostError(failure, 'cancelled')
        ? 'cancelled'
        : 'error';
    if (isHostError(failure, 'round-limit')) await this.deps.gate.fault(context, failure);
    await this.deps.observer.callEnded?.({
      call: context,
      outcome,
      error: messageOf(failure),
      rounds,
      endedAt: new Date().toISOString(),
    });
  }

  private async runCall(request: CallRequest): Promise<CallResult> {
    const { connections, gate, options } = this.deps;
    const conn = await connections.connect(request.server, request.signal);
    const slot = connections.slot(request.server);
    if (request.method === 'tools/call' && !slot.toolTaskSupport && this.deps.needsToolHints?.())
      await connections.listTools(request.server, request.signal);
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) controller.abort(request.signal.reason);
    request.signal?.addEventListener('abort', onOuterAbort, { once: true });

    const context: CallContext = {
      callId: request.callId ?? randomUUID(),
      server: request.server,
      era: conn.era,
      protocolVersion: conn.protocolVersion,
      method: request.method,
      name: request.name,
      ...(request.arguments ? { arguments: request.arguments } : {}),
      ...(request.agent ? { agent: request.agent } : {}),
      ...toolHintsFor(slot, request),
    };
    const live: LiveCall = { context, round: 1, controller, legacyQuestions: 0, ended: false };
    // Whatever ends the call withdraws its open questions at once, before
    // anything else hears of the end.
    const end = (why: string) => {
      live.ended = true;
      if (!controller.signal.aborted) controller.abort(callEndedReason(why));
    };
    slot.calls.set(context.callId, live);

    const params: Record<string, unknown> =
      request.method === 'resources/read'
        ? { uri: request.name }
        : { name: request.name, ...(request.arguments ? { arguments: request.arguments } : {}) };
    let rounds = 0;
    try {
      const legacyTask =
        conn.era === 'legacy' && request.method === 'tools/call'
          ? await this.legacyTaskParams(conn, slot, request)
          : undefined;
      const { result, rounds: r } = legacyTask
        ? {
            result: await sendLegacyTaskCall(
              conn.client,
              { ...params, task: legacyTask },
              controller.signal,
              options.requestTimeoutMs,
            ),
            rounds: 0,
          }
        : conn.era === 'modern'
          ? await runInputRequiredLoop(conn.client, request.method, params, context, gate, {
              maxRounds: this.deps.maxRounds(),
              pacingDelayMs: options.pacingDelayMs ?? 250,
              ...(options.roundLimitAdvice ? { roundLimitAdvice: options.roundLimitAdvice } : {}),
              signal: controller.signal,
              ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
              ...(request.method === 'tools/call' && 'url' in conn.entry
                ? { headers: paramHeaders(slot.toolHeaders.get(request.name) ?? [], request.arguments) }
                : {}),
            })
          : await runLegacyCall(conn.client, request.method, params, context, gate, slot.completions, {
              maxRounds: this.deps.maxRounds(),
              signal: controller.signal,
              ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
              onAttempt: (round, deadline) => {
                live.round = round;
                live.deadline = deadline;
              },
            });
      rounds = r;
      if (live.failure) throw live.failure;
      // A call that became a task goes on until the task ends.
      const taskSnap = this.taskOf(conn, result);
      if (taskSnap) {
        const done = await this.runTask(conn, context, taskSnap, controller.signal, request, rounds);
        end('its task ended');
        return done;
      }
      request.onResult?.(result);
      end('it completed');
      await this.callCompleted(context, result, rounds);
      return { call: context, result, rounds };
    } catch (error) {
      const failure =
        live.failure ??
        (controller.signal.aborted && isHostError(controller.signal.reason) ? controller.signal.reason : error);
      end(messageOf(failure));
      await this.callFailed(context, failure, rounds);
      throw failure;
    } finally {
      end('it ended');
      request.signal?.removeEventListener('abort', onOuterAbort);
      slot.calls.delete(context.callId);
    }
  }

  /** The task a result stands for (modern resultType "task", legacy CreateTaskResult), if any. */
  private taskOf(conn: ServerConnection, result: Record<string, unknown>): TaskSnapshot | undefined {
    if (conn.era === 'modern') {
      const raw = conn.taskWire.takeTaskHandle(result);
      if (!raw) return undefined;
      try {
        return parseTask(raw, `server "${conn.name}" answered tools/call with a task`);
      } catch (e) {
        throw new HostError('protocol', (e as Error).message);
      }
    }
    return legacyTaskOf(result, conn.name);
  }

  /** Legacy: `params.task` when the server and the tool allow (required) or the caller prefers (optional) a task. */
  private async legacyTaskParams(
    conn: ServerConnection,
    slot: ServerSlot,
    request: CallRequest,
  ): Promise<{ ttl: number } | undefined> {
    const caps = conn.client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } };
    if (!caps?.tasks?.requests?.tools?.call) return undefined;
    if (!slot.toolTaskSupport) await this.deps.connections.listTools(request.server, request.signal);
    const support = slot.toolTaskSupport?.get(request.name);
    if (support !== 'required' && !(support === 'optional' && (request.preferTask || request.detach))) return undefined;
    this.deps.tasks.checkLimit(request.server);
    return { ttl: this.deps.options.taskTtlMs ?? 3_600_000 };
  }

  /** Follow (or, detached, remember) a call that became a task. */
  private async runTask(
    conn: ServerConnection,
    context: CallContext,
    snap: TaskSnapshot,
    signal: AbortSignal,
    request: CallRequest,
    rounds: number,
  ): Promise<CallResult> {
    const { tasks } = this.deps;
    if (conn.era === 'modern') {
      try {
        tasks.checkLimit(conn.name);
      } catch (error) {
        // The server chose a task; the host cannot follow another one.
        await taskOps(conn.client, conn.era, conn.name)
          .cancel(snap.taskId)
          .catch(() => undefined);
        throw error;
      }
    }
    if (request.detach) {
      await tasks.remember(conn, context, snap);
      const result = {
        content: [
          {
            type: 'text',
            text: `Task ${snap.taskId} started (${snap.status}); follow it with: countersign task get ${snap.taskId}`,
          },
        ],
        _meta: { 'io.countersign/host-generated': true },
      };
      await this.callCompleted(context, result, rounds);
      return { call: context, result, rounds, task: { taskId: snap.taskId, status: snap.status, detached: true } };
    }
    const result = await tasks.follow(conn, context, snap, signal);
    await this.callCompleted(context, result, rounds);
    return { call: context, result, rounds, task: { taskId: snap.taskId, status: 'completed', detached: false } };
  }
}
