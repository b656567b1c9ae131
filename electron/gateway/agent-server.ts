// The MCP server an agent talks to (one instance per stdio connection or per
// HTTP request, both eras). It never asks the agent anything: it declares no
// use of elicitation or sampling toward the agent, and sends nothing but
// results, list changes, content-free progress, to agents that declare tasks
// task handles whose status is the gateway's own words (agent-tasks.ts), and
// to other 2026-07-28 agents, while the human decides, input_required results
// that carry only the gateway's own handle and no question (held-calls.ts).
// A call's questions go to the human through the gateway's Host.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_INFO_META_KEY,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { CallMethod } from '../../shared/elicitation/types';
import { AgentTasks, type AgentTaskOutcome } from './agent-tasks';
import { TASKS_EXTENSION } from '../core/client-identity';
import { declaresModernTasks, legacyTaskView, modernTaskView, registerTaskMethods } from './agent-task-methods';
import type { Route } from './catalog';
import type { Gateway } from './gateway';
import { heldTarget, keepAliveDue, type HeldCall } from './held-calls';
import { cleanResult, requestFailure, signInNeededResult, toolFailure } from './results';
import { vouchedAs } from '../../shared/vouched-as';

/** What the gateway calls itself toward agents. */
export const GATEWAY_INFO = { name: 'countersign-gateway', version: '0.1.0' };

/** Told to the model once, at connect. */
export const GATEWAY_INSTRUCTIONS =
  'Countersign gives you the tools of the servers the user configured, named <server>__<name>. ' +
  'When a server needs the user to confirm or fill something in, ' +
  'Countersign asks the user directly in its own window; ' +
  'you only see the final result. Do not ask the user to confirm such actions in the chat, and report a declined or ' +
  'cancelled result as exactly that: nothing was done.';

/** What a keep-alive leg's timer resolves with (no result of a call can be this object). */
const KEEP_ALIVE_DUE = Symbol('keep-alive due');

/** How long a 2026-07-28 agent may cache the gateway's lists. */
const LIST_TTL_MS = 60_000;
const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'server/discover'] as const;

/** A readable, single-line agent name from the clientInfo an agent sent (untrusted text). */
/**
 * A tool as an agent without task support sees it: "required" becomes
 * "optional", which is what the gateway offers (it follows the server's task
 * itself while the agent's call waits).
 */
export function withoutRequiredTask(tool: Tool): Tool {
  if (tool.execution?.taskSupport !== 'required') return tool;
  return { ...tool, execution: { ...tool.execution, taskSupport: 'optional' } };
}

export function agentName(info: { name?: unknown } | undefined): string {
  const raw = typeof info?.name === 'string' ? info.name : '';
  const clean = raw
    .replace(/[^\p{L}\p{N} ._@/+-]/gu, '')
    .trim()
    .slice(0, 60);
  return clean === '' ? 'agent' : clean;
}

/**
 * The label a human reads in dialogs and the history: what the agent says it
 * is (clientInfo name and version) first, then the connection id that tells
 * two of them apart, e.g. "claude-code 2.1.0 (stdio-3f9a1c)".
 */
export function agentLabel(info: { name?: unknown; version?: unknown } | undefined, connection: string): string {
  const version = (typeof info?.version === 'string' ? info.version : '')
    .replace(/[^\p{L}\p{N}._+-]/gu, '')
    .slice(0, 30);
  return `${agentName(info)}${version ? ` ${version}` : ''} (${connection})`;
}

/**
 * Build the server for one agent connection (stdio) or request (HTTP).
 * `connection` names the connection in agent labels; `attach` lets the
 * instance hear list changes (HTTP instances live for one request: the
 * endpoint forwards changes to its subscriptions instead).
 */
export function createAgentServer(
  gateway: Gateway,
  connection: string | (() => string),
  options: { attach?: boolean } = {},
): Server {
  const server = new Server(GATEWAY_INFO, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
      // Task handles for agents that want them (2025-11-25 task augmentation;
      // the 2026-07-28 Tasks extension). The codec drops `tasks` on 2026-07-28.
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { [TASKS_EXTENSION]: {} },
    },
    instructions: GATEWAY_INSTRUCTIONS,
    // 2026-07-28 clients cache lists for this long. Without a hint (ttl 0) an
    // SDK 2.x client over HTTP lists tools again before every call to learn
    // their header declarations, which cut throughput tenfold. Changes are
    // still announced at once to clients that listen. Reads are never cached:
    // a read may ask the human.
    cacheHints: Object.fromEntries(LISTS.map((m) => [m, { ttlMs: LIST_TTL_MS, cacheScope: 'private' as const }])),
  });
  const agentOf = (ctx: ServerContext): string => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const info =
      (envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined) ??
      server.getClientVersion();
    return agentLabel(info, typeof connection === 'function' ? connection() : connection);
  };
  const servers = () => gateway.serverNames();
  const owner = () => (typeof connection === 'function' ? connection() : connection);
  const tasks: AgentTasks = gateway.agentTasks;
  const modernTasks = declaresModernTasks;

  /**
   * Content-free progress while the call waits, if the agent asked for
   * progress: on a timer, and at once when a question opens or the server's
   * task changes. The message is one of the tracker's fixed sentences.
   */
  const progress = (ctx: ServerContext, callId: string): { changed(): void; stop(): void } => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token === undefined) return { changed: () => undefined, stop: () => undefined };
    let n = 0;
    const send = () => {
      const message = gateway.tracker.sentence(callId);
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
        .catch(() => undefined);
    };
    const timer = setInterval(send, gateway.progressIntervalMs);
    let last = '';
    return {
      changed: () => {
        const now = gateway.tracker.sentence(callId);
        if (now === last) return;
        last = now;
        send();
      },
      stop: () => clearInterval(timer),
    };
  };

  /** Run one call through the Host; resolves with the server's final result. */
  const run = async (
    ctx: ServerContext,
    target: { server: string; method: CallMethod; name: string; arguments?: Record<string, unknown> },
    call: { callId?: string; signal?: AbortSignal; onChange?: () => void; progress?: false } = {},
  ) => {
    const callId = call.callId ?? randomUUID();
    let notify: { changed(): void; stop(): void } = { changed: () => undefined, stop: () => undefined };
    gateway.tracker.begin(callId, () => {
      notify.changed();
      call.onChange?.();
    });
    // Held calls send progress per leg, on the request waiting now (keepAliveLeg).
    if (call.progress !== false) notify = progress(ctx, callId);
    try {
      // A server restarted since it was listed is hooked for list changes again.
      await gateway.prepare(target.server);
      const { result } = await gateway.host.call({
        ...target,
        signal: call.signal ?? ctx.mcpReq.signal,
        agent: agentOf(ctx),
        callId,
      });
      return { ok: true as const, result: cleanResult(result) };
    } catch (error) {
      return { ok: false as const, error, decision: gateway.tracker.lastDecision(callId) };
    } finally {
      notify.stop();
      gateway.tracker.end(callId);
    }
  };

  /** True for a 2026-07-28 request (it carries the per-request envelope), which takes input_required. */
  const modernRequest = (ctx: ServerContext): boolean =>
    (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined;

  /**
   * Run a call for a 2026-07-28 agent without tasks so that it outlives the
   * agent's per-request timeout while the human decides: the first leg is
   * this request. `answer` turns the finished call into the agent's result
   * (or throws the ProtocolError to answer with).
   */
  const keptAlive = (
    ctx: ServerContext,
    target: Parameters<typeof run>[1],
    targetKey: string,
    answer: (outcome: Awaited<ReturnType<typeof run>>) => unknown,
  ): Promise<unknown> => {
    const callId = randomUUID();
    const controller = new AbortController();
    const held: HeldCall = {
      owner: owner(),
      target: targetKey,
      callId,
      controller,
      onChange: () => undefined,
      running: run(ctx, target, {
        callId,
        signal: controller.signal,
        progress: false,
        onChange: () => held.onChange(),
      }).then(answer),
    };
    // Settled while held, with no leg awaiting it: not an unhandled rejection (the next leg reads it).
    held.running.catch(() => undefined);
    return keepAliveLeg(ctx, held);
  };

  /**
   * One request of a held call: the call's result if it ends in time;
   * otherwise, once the keep-alive time has passed and the human has been
   * asked, a state-only input_required result with a new handle, which the
   * agent repeats. The agent cancelling this request cancels the call.
   */
  const keepAliveLeg = async (ctx: ServerContext, held: HeldCall): Promise<unknown> => {
    const notify = progress(ctx, held.callId);
    const onAbort = () => held.controller.abort(ctx.mcpReq.signal.reason);
    if (ctx.mcpReq.signal.aborted) onAbort();
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    const timer = keepAliveDue(gateway.keepAliveMs, () => gateway.tracker.asked(held.callId));
    held.onChange = () => {
      notify.changed();
      timer.changed();
    };
    // A repeat of a call that has asked already: due one keep-alive time from now.
    timer.changed();
    try {
      const first = await Promise.race([held.running, timer.due.then(() => KEEP_ALIVE_DUE)]);
      if (first !== KEEP_ALIVE_DUE) return first;
      return inputRequired({ requestState: gateway.heldCalls.hold(held) });
    } finally {
      timer.stop();
      notify.stop();
      held.onChange = () => undefined;
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    }
  };

  /**
   * A repeated request of a held call (it carries the handle as its
   * requestState), or undefined for a first request. A handle this
   * connection does not hold for this target is refused, and nothing else
   * changes.
   */
  const resumed = (ctx: ServerContext, targetKey: string): Promise<unknown> | undefined => {
    const state = ctx.mcpReq.requestState<unknown>();
    if (state === undefined) return undefined;
    const held = typeof state === 'string' ? gateway.heldCalls.take(state, owner(), targetKey) : undefined;
    if (!held)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Nothing to resume: the gateway holds no call for this handle on this connection ' +
          '(a handle is used once, by the request that repeats the same call); nothing was run',
      );
    return keepAliveLeg(ctx, held);
  };

  /** Whether a call of this request is kept alive across the agent's requests. */
  const keepsAlive = (ctx: ServerContext): boolean => gateway.keepAliveMs > 0 && modernRequest(ctx);

  /** A tools/call outcome as the agent's result, or the error to throw. */
  const toolResponse = (route: Route<Tool>, outcome: Awaited<ReturnType<typeof run>>): CallToolResult => {
    // Checked by the call's result schema in the core (calls/result-schemas) before it got here.
    if (outcome.ok)
      return server.projectCallToolResult(vouchedAs<CallToolResult>(outcome.result), route.item.outputSchema);
    const failure = toolFailure(outcome.error, route.server, outcome.decision, {
      outputSchema: route.item.outputSchema !== undefined,
    });
    if (failure instanceof ProtocolError) throw failure;
    // No runtime check: toolFailure builds this result itself, as text content (+ isError) (results.test.ts).
    return vouchedAs<CallToolResult>(failure);
  };

  server.setRequestHandler('tools/list', async () => {
    const tools = await gateway.catalog.tools(servers());
    // A legacy agent without task support could not call a task-required
    // tool (its SDK refuses); through the gateway it can, as a call that
    // waits while the host follows the task. The 2026-07-28 codec drops
    // `execution` for modern agents (the server decides there).
    if (legacyTasks()) return { tools };
    return { tools: tools.map(withoutRequiredTask) };
  });

  /** True when a legacy agent declared tasks at initialize. */
  const legacyTasks = (): boolean => server.getClientCapabilities()?.tasks !== undefined;

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const again = resumed(ctx, heldTarget('tools/call', request.params.name));
    if (again) return vouchedAs<CallToolResult>(await again);
    const waitsForSignIn = gateway.catalog.signInNeededFor(request.params.name);
    if (waitsForSignIn !== undefined) return signInNeededResult(waitsForSignIn);
    const route = await gateway.catalog.resolveTool(request.params.name, servers());
    if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const target = {
      server: route.server,
      method: 'tools/call' as const,
      name: route.name,
      ...(request.params.arguments !== undefined ? { arguments: request.params.arguments } : {}),
    };
    const legacyTask = (request.params as { task?: { ttl?: unknown } }).task;
    if (legacyTask !== undefined) {
      // 2025-11-25 task augmentation: the agent asked for a task handle.
      if (!tasks.canStart(owner())) throw AgentTasks.limitError();
      const ttl = typeof legacyTask?.ttl === 'number' ? legacyTask.ttl : undefined;
      const callId = randomUUID();
      const controller = new AbortController();
      const task = tasks.start(
        owner(),
        ttl,
        () => gateway.tracker.sentence(callId),
        controller,
        run(ctx, target, { callId, signal: controller.signal }).then((o) => taskOutcome(route, o)),
      );
      return gateway.legacyTaskHandles.standIn({ task: legacyTaskView(task) });
    }
    if (!modernTasks(ctx) && keepsAlive(ctx))
      // The agent's result as toolResponse builds it, or an input_required keep-alive.
      return vouchedAs<CallToolResult>(
        await keptAlive(ctx, target, heldTarget('tools/call', request.params.name), (o) => toolResponse(route, o)),
      );
    if (!modernTasks(ctx)) return toolResponse(route, await run(ctx, target));
    // 2026-07-28 with the Tasks extension: the gateway decides. A call that
    // ends before it needs the human or becomes a task on the server answers
    // at once; one that does gets a task handle, and the agent is free.
    const callId = randomUUID();
    const controller = new AbortController();
    const onAbort = () => controller.abort(ctx.mcpReq.signal.reason);
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    let becameLong!: () => void;
    const long = new Promise<'long'>((resolve) => (becameLong = () => resolve('long')));
    const running = run(ctx, target, { callId, signal: controller.signal, onChange: () => becameLong() });
    const first = await Promise.race([running, long]);
    ctx.mcpReq.signal.removeEventListener('abort', onAbort);
    if (first !== 'long') return toolResponse(route, first);
    // Over its share of running tasks, the agent's call simply goes on waiting.
    if (!tasks.canStart(owner())) return toolResponse(route, await running);
    const task = tasks.start(
      owner(),
      undefined,
      () => gateway.tracker.sentence(callId),
      controller,
      running.then((o) => taskOutcome(route, o)),
    );
    // A 2026-07-28 CreateTaskResult from the gateway's own task; the SDK's type lacks it (tasks-agent.test.ts).
    return vouchedAs<CallToolResult>({ resultType: 'task', ...modernTaskView(task) });
  });

  /** A finished call as an agent task's outcome (the same result or error a plain call gets). */
  const taskOutcome = (route: Route<Tool>, outcome: Awaited<ReturnType<typeof run>>): AgentTaskOutcome => {
    try {
      return { kind: 'result', result: { ...toolResponse(route, outcome) } };
    } catch (error) {
      if (error instanceof ProtocolError) return { kind: 'error', error: { code: error.code, message: error.message } };
      throw error;
    }
  };

  registerTaskMethods(server, tasks, owner);

  server.setRequestHandler('prompts/list', async () => ({ prompts: await gateway.catalog.prompts(servers()) }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const key = heldTarget('prompts/get', request.params.name);
    const again = resumed(ctx, key);
    if (again) return vouchedAs(await again);
    const route = await gateway.catalog.resolvePrompt(request.params.name, servers());
    if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const target = {
      server: route.server,
      method: 'prompts/get' as const,
      name: route.name,
      ...(request.params.arguments !== undefined ? { arguments: request.params.arguments } : {}),
    };
    const answer = (outcome: Awaited<ReturnType<typeof run>>) => {
      if (!outcome.ok) throw requestFailure(outcome.error, route.server, outcome.decision);
      return outcome.result;
    };
    // Checked by the call's result schema in the core (calls/result-schemas) before it got here.
    if (keepsAlive(ctx)) return vouchedAs(await keptAlive(ctx, target, key, answer));
    return vouchedAs(answer(await run(ctx, target)));
  });

  server.setRequestHandler('resources/list', async () => ({
    resources: (await gateway.catalog.resources(servers())).resources,
  }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: (await gateway.catalog.resources(servers())).templates,
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const key = heldTarget('resources/read', request.params.uri);
    const again = resumed(ctx, key);
    if (again) return vouchedAs(await again);
    const found = await gateway.catalog.resolveResource(request.params.uri, servers());
    if (!found)
      throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${request.params.uri}`);
    if ('ambiguous' in found) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Resource ${request.params.uri} matches servers ${found.ambiguous.map((s) => `"${s}"`).join(' and ')}; ` +
          'read it as countersign://<server>/<uri>',
      );
    }
    const target = { server: found.server, method: 'resources/read' as const, name: found.uri };
    const answer = (outcome: Awaited<ReturnType<typeof run>>) => {
      if (!outcome.ok) throw requestFailure(outcome.error, found.server, outcome.decision);
      return outcome.result;
    };
    // Checked by the call's result schema in the core (calls/result-schemas) before it got here.
    if (keepsAlive(ctx)) return vouchedAs(await keptAlive(ctx, target, key, answer));
    return vouchedAs(answer(await run(ctx, target)));
  });

  if (options.attach !== false) gateway.attach(server);
  return server;
}
