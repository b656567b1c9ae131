// The task methods an agent uses on the gateway's own task handles, in both
// eras: 2025-11-25 (tasks/get, tasks/result, tasks/list, tasks/cancel) and
// the 2026-07-28 Tasks extension (tasks/get, tasks/update, tasks/cancel).
// What they return is built from the gateway's AgentTask only: fixed status
// sentences, then the call's final result (as a plain call would get it) or
// its error. `tasks/update` carries answers, and the gateway never asks an
// agent anything, so whatever it brings is dropped unread.
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type Server,
  type ServerContext,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { MODERN_PROTOCOL_VERSION, TASKS_EXTENSION } from '../core/client-identity';
import type { AgentTask, AgentTasks } from './agent-tasks';

/** True when this 2026-07-28 request declared the Tasks extension in its per-request capabilities. */
export function declaresModernTasks(ctx: ServerContext): boolean {
  const envelope = (ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope;
  const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return Boolean(caps?.extensions && typeof caps.extensions === 'object' && TASKS_EXTENSION in caps.extensions);
}

/** What both eras' task objects say alike; only the names of the two durations differ. */
function taskFacts(task: AgentTask) {
  return {
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
  };
}

/** A 2025-11-25 Task object. */
export function legacyTaskView(task: AgentTask): Record<string, unknown> {
  return { ...taskFacts(task), ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}

/** A 2026-07-28 task (CreateTaskResult body without resultType; tasks/get adds result or error). */
export function modernTaskView(task: AgentTask): Record<string, unknown> {
  return { ...taskFacts(task), ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs };
}

/** A result built here from the gateway's own task fields (the shapes above). */
function reply(body: Record<string, unknown>): Result {
  return body;
}

const TaskIdParams = z.looseObject({ taskId: z.string().max(512) });
const ListParams = z.looseObject({ cursor: z.string().optional() });

/** Register the task methods on an agent-facing server; `owner` names the agent connection. */
export function registerTaskMethods(server: Server, tasks: AgentTasks, owner: () => string): void {
  const modern = () => server.getNegotiatedProtocolVersion?.() === MODERN_PROTOCOL_VERSION;

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params) => {
    const task = tasks.get(owner(), params.taskId);
    if (!modern()) return reply(legacyTaskView(task));
    const out: Record<string, unknown> = { resultType: 'complete', ...modernTaskView(task) };
    if (task.outcome?.kind === 'result' && task.status === 'completed') out.result = task.outcome.result;
    if (task.outcome?.kind === 'error' && task.status === 'failed') out.error = task.outcome.error;
    return reply(out);
  });

  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params) => {
    const task = await tasks.cancel(owner(), params.taskId);
    return reply(modern() ? { resultType: 'complete' } : legacyTaskView(task));
  });

  // 2026-07-28: answers for a task's input requests. The gateway's tasks
  // never have any (questions go to the human), so there is nothing to take.
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, async (params) => {
    tasks.get(owner(), params.taskId);
    return reply({ resultType: 'complete' });
  });

  // 2025-11-25: the result, once the task has ended (blocks until then).
  server.setRequestHandler('tasks/result', { params: TaskIdParams }, async (params, ctx) => {
    const task = await tasks.settled(owner(), params.taskId, ctx.mcpReq.signal);
    const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
    if (task.status === 'cancelled')
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Task ${task.taskId} was cancelled`);
    if (task.outcome?.kind === 'error') throw new ProtocolError(task.outcome.error.code, task.outcome.error.message);
    const result = task.outcome?.kind === 'result' ? task.outcome.result : { content: [] };
    const meta = (result._meta as Record<string, unknown> | undefined) ?? {};
    return reply({ ...result, _meta: { ...meta, ...related } });
  });

  server.setRequestHandler('tasks/list', { params: ListParams }, async () =>
    reply({ tasks: tasks.list(owner()).map(legacyTaskView) }),
  );
}
