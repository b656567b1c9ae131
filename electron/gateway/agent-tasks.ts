// Task handles the gateway gives to agents that declare tasks. The agent's
// task is the gateway's own (its id is not the server's): the host runs the
// call, follows any task the server made and routes every question to the
// human, while the agent polls a status that says only what the gateway
// chose to say. Nothing of a question (its text, its schema, a server's
// status message, requestState) is ever part of an agent task: statuses are
// `working` with a fixed sentence, then the final result or error.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { AgentTaskIds } from './agent-task-ids';

/** Statuses an agent task can have (never `input_required`: the agent is never asked). */
export type AgentTaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** How a task's call ended. */
export type AgentTaskOutcome =
  { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number; message: string } };

/** What a running call reports about itself, in the gateway's own words. */
export type StatusSentence = () => string;

export interface AgentTask {
  taskId: string;
  /** The agent connection that created it: only it may see or cancel it. */
  owner: string;
  status: AgentTaskStatus;
  statusMessage: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  outcome?: AgentTaskOutcome;
}

interface Entry {
  task: AgentTask;
  controller: AbortController;
  sentence: StatusSentence;
  done: Promise<void>;
  /** When a finished task is forgotten. */
  expiry?: NodeJS.Timeout;
}

/** Bounds: the ttl an agent may ask for, running tasks per agent, finished tasks kept. */
export const AGENT_TASK_LIMITS = {
  defaultTtlMs: 3_600_000,
  maxTtlMs: 24 * 3_600_000,
  minTtlMs: 1_000,
  pollIntervalMs: 500,
  maxRunningPerOwner: 32,
  maxKept: 500,
};

export class AgentTasks {
  private readonly entries = new Map<string, Entry>();
  /** Ids, and the error for an id that is not the caller's (an earlier gateway process's is named as such). */
  private readonly ids = new AgentTaskIds();

  /** True while `owner` may start another task (a bounded number run at once). */
  canStart(owner: string): boolean {
    let n = 0;
    for (const e of this.entries.values()) if (e.task.owner === owner && e.task.status === 'working') n++;
    return n < AGENT_TASK_LIMITS.maxRunningPerOwner;
  }

  /** The refusal for an agent over its share. */
  static limitError(): ProtocolError {
    return new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Countersign runs at most ${AGENT_TASK_LIMITS.maxRunningPerOwner} tasks per agent connection; ` +
        'wait for one to end or cancel one',
    );
  }

  /**
   * Make a running call a task of `owner` (status working). `controller`
   * aborts the call: tasks/cancel and the gateway's shutdown use it.
   */
  start(
    owner: string,
    requestedTtlMs: number | undefined,
    sentence: StatusSentence,
    controller: AbortController,
    running: Promise<AgentTaskOutcome>,
  ): AgentTask {
    this.prune();
    const now = new Date().toISOString();
    const ttlMs = Math.min(
      AGENT_TASK_LIMITS.maxTtlMs,
      Math.max(AGENT_TASK_LIMITS.minTtlMs, requestedTtlMs ?? AGENT_TASK_LIMITS.defaultTtlMs),
    );
    const task: AgentTask = {
      taskId: this.ids.next(),
      owner,
      status: 'working',
      statusMessage: sentence(),
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: AGENT_TASK_LIMITS.pollIntervalMs,
    };
    const entry: Entry = { task, controller, sentence, done: Promise.resolve() };
    entry.done = running.then(
      (outcome) => this.finish(entry, outcome),
      (error: unknown) =>
        this.finish(entry, {
          kind: 'error',
          error: { code: ProtocolErrorCode.InternalError, message: `Countersign: ${String(error)}` },
        }),
    );
    this.entries.set(task.taskId, entry);
    return { ...task };
  }

  private finish(entry: Entry, outcome: AgentTaskOutcome): void {
    const task = entry.task;
    task.outcome = outcome;
    task.status = entry.controller.signal.aborted ? 'cancelled' : outcome.kind === 'result' ? 'completed' : 'failed';
    task.statusMessage =
      task.status === 'cancelled'
        ? 'cancelled; nothing more was sent to the server'
        : task.status === 'completed'
          ? 'done'
          : 'failed';
    task.lastUpdatedAt = new Date().toISOString();
    // Kept for its ttl after it ended, then forgotten.
    entry.expiry = setTimeout(() => this.entries.delete(task.taskId), task.ttlMs);
    entry.expiry.unref();
  }

  private prune(): void {
    if (this.entries.size < AGENT_TASK_LIMITS.maxKept) return;
    for (const [id, e] of this.entries) {
      if (e.task.status === 'working') continue;
      clearTimeout(e.expiry);
      this.entries.delete(id);
      if (this.entries.size < AGENT_TASK_LIMITS.maxKept) return;
    }
  }

  private entry(owner: string, taskId: unknown): Entry {
    const entry = typeof taskId === 'string' ? this.entries.get(taskId) : undefined;
    if (!entry || entry.task.owner !== owner) throw this.ids.unknown(taskId);
    return entry;
  }

  /** The task as it is now (a running task's sentence is asked afresh). */
  get(owner: string, taskId: unknown): AgentTask {
    const entry = this.entry(owner, taskId);
    const task = entry.task;
    if (task.status === 'working') {
      const sentence = entry.sentence();
      if (sentence !== task.statusMessage) {
        task.statusMessage = sentence;
        task.lastUpdatedAt = new Date().toISOString();
      }
    }
    return { ...task };
  }

  /** The task once it has ended (or when `signal` aborts). */
  async settled(owner: string, taskId: unknown, signal?: AbortSignal): Promise<AgentTask> {
    const entry = this.entry(owner, taskId);
    if (entry.task.status === 'working') {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal?.reason ?? new Error('aborted'));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        void entry.done.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    return { ...entry.task };
  }

  /** The owner's tasks, newest first. */
  list(owner: string): AgentTask[] {
    return [...this.entries.values()]
      .filter((e) => e.task.owner === owner)
      .map((e) => this.get(owner, e.task.taskId))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  }

  /** Cancel a running task (the host withdraws its questions and cancels the server's task). */
  async cancel(owner: string, taskId: unknown): Promise<AgentTask> {
    const entry = this.entry(owner, taskId);
    if (entry.task.status !== 'working') return { ...entry.task };
    entry.controller.abort(new Error('cancelled by the agent'));
    await entry.done;
    return { ...entry.task };
  }

  /** Cancel everything (gateway shutdown). */
  close(): void {
    for (const e of this.entries.values()) {
      clearTimeout(e.expiry);
      if (e.task.status === 'working') e.controller.abort(new Error('the gateway is closing'));
    }
  }
}

const STAND_IN_KEY = 'io.countersign/agent-task';

/**
 * The 2025-11-25 CreateTaskResult through the SDK 2.x server, which checks
 * every tools/call result against CallToolResult and would refuse
 * `{ task }`. The handler returns a stand-in result carrying a nonce; the
 * outbound edge of the agent's transport swaps it for the task body. Only a
 * stand-in this gateway made can be swapped: the nonce is random and used
 * once, so a server's result cannot turn itself into anything.
 */
export class LegacyTaskHandles {
  private readonly bodies = new Map<string, Record<string, unknown>>();

  /** A CallToolResult standing for `body` until it goes out. */
  standIn(body: Record<string, unknown>): { content: []; _meta: Record<string, string> } {
    const nonce = randomUUID();
    this.bodies.set(nonce, body);
    // Bounded: a response that never went out (the agent hung up) must not pile up.
    if (this.bodies.size > 256) this.bodies.delete(this.bodies.keys().next().value as string);
    return { content: [], _meta: { [STAND_IN_KEY]: nonce } };
  }

  /** The message to send: a response carrying a stand-in becomes the task body, anything else passes. */
  rewrite<M>(message: M): M {
    const m = message as { id?: unknown; result?: { _meta?: Record<string, unknown> } };
    const nonce = m.result?._meta?.[STAND_IN_KEY];
    if (m.id === undefined || typeof nonce !== 'string') return message;
    const body = this.bodies.get(nonce);
    if (!body) return message;
    this.bodies.delete(nonce);
    // The same JSON-RPC response with the CreateTaskResult as its result.
    const rewritten: unknown = { ...m, result: body };
    return rewritten as M;
  }
}
