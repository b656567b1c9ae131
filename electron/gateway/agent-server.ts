// The MCP server an agent talks to (one instance per stdio connection or per
// HTTP request, both eras). It never asks the agent anything: it declares no
// use of elicitation or sampling toward the agent, returns no input_required,
// and sends nothing but results, list changes and content-free progress. A
// call's questions go to the human through the gateway's Host.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallMethod } from '../../shared/elicitation/types';
import type { Gateway } from './gateway';
import { cleanResult, requestFailure, toolFailure } from './results';
import { checkedAs } from '../../shared/checked-as';

/** What the gateway calls itself toward agents. */
export const GATEWAY_INFO = { name: 'countersign-gateway', version: '0.1.0' };

/** Told to the model once, at connect. */
export const GATEWAY_INSTRUCTIONS =
  'Countersign gives you the tools of the servers the user configured, named <server>__<name>. ' +
  'When a server needs the user to confirm or fill something in, Countersign asks the user directly in its own window; ' +
  'you only see the final result. Do not ask the user to confirm such actions in the chat, and report a declined or ' +
  'cancelled result as exactly that: nothing was done.';

/** How long a 2026-07-28 agent may cache the gateway's lists. */
const LIST_TTL_MS = 60_000;
const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'server/discover'] as const;

/** A readable, single-line agent name from the clientInfo an agent sent (untrusted text). */
export function agentName(info: { name?: unknown } | undefined): string {
  const raw = typeof info?.name === 'string' ? info.name : '';
  const clean = raw
    .replace(/[^\p{L}\p{N} ._@/+-]/gu, '')
    .trim()
    .slice(0, 60);
  return clean === '' ? 'agent' : clean;
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
    capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } },
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
    const info = (envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined) ?? server.getClientVersion();
    return `${agentName(info)}#${typeof connection === 'function' ? connection() : connection}`;
  };
  const servers = () => gateway.serverNames();

  /** Content-free progress while the call waits, if the agent asked for progress. */
  const progress = (ctx: ServerContext, callId: string): (() => void) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token === undefined) return () => undefined;
    let n = 0;
    const timer = setInterval(() => {
      const message = gateway.tracker.waiting(callId)
        ? 'waiting for the user to answer in Countersign'
        : 'waiting for the server';
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
        .catch(() => undefined);
    }, gateway.progressIntervalMs);
    return () => clearInterval(timer);
  };

  /** Run one call through the Host; resolves with the server's final result. */
  const run = async (
    ctx: ServerContext,
    target: { server: string; method: CallMethod; name: string; arguments?: Record<string, unknown> },
  ) => {
    const callId = randomUUID();
    gateway.tracker.begin(callId);
    const stop = progress(ctx, callId);
    try {
      // A server restarted since it was listed is hooked for list changes again.
      await gateway.prepare(target.server);
      const { result } = await gateway.host.call({ ...target, signal: ctx.mcpReq.signal, agent: agentOf(ctx), callId });
      return { ok: true as const, result: cleanResult(result) };
    } catch (error) {
      return { ok: false as const, error, decision: gateway.tracker.lastDecision(callId) };
    } finally {
      stop();
      gateway.tracker.end(callId);
    }
  };

  server.setRequestHandler('tools/list', async () => ({ tools: await gateway.catalog.tools(servers()) }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const route = await gateway.catalog.resolveTool(request.params.name, servers());
    if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const outcome = await run(ctx, {
      server: route.server,
      method: 'tools/call',
      name: route.name,
      ...(request.params.arguments !== undefined ? { arguments: request.params.arguments } : {}),
    });
    if (outcome.ok) return server.projectCallToolResult(outcome.result as CallToolResult, route.item.outputSchema);
    const failure = toolFailure(outcome.error, route.server, outcome.decision, {
      outputSchema: route.item.outputSchema !== undefined,
    });
    if (failure instanceof ProtocolError) throw failure;
    return failure as CallToolResult;
  });

  server.setRequestHandler('prompts/list', async () => ({ prompts: await gateway.catalog.prompts(servers()) }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const route = await gateway.catalog.resolvePrompt(request.params.name, servers());
    if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const outcome = await run(ctx, {
      server: route.server,
      method: 'prompts/get',
      name: route.name,
      ...(request.params.arguments !== undefined ? { arguments: request.params.arguments } : {}),
    });
    if (!outcome.ok) throw requestFailure(outcome.error, route.server, outcome.decision);
    // Checked by the call's result schema in the core (calls/result-schemas) before it got here.
    return checkedAs(outcome.result);
  });

  server.setRequestHandler('resources/list', async () => ({
    resources: (await gateway.catalog.resources(servers())).resources,
  }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: (await gateway.catalog.resources(servers())).templates,
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const found = await gateway.catalog.resolveResource(request.params.uri, servers());
    if (!found)
      throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${request.params.uri}`);
    if ('ambiguous' in found) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Resource ${request.params.uri} matches servers ${found.ambiguous.map((s) => `"${s}"`).join(' and ')}; read it as countersign://<server>/<uri>`,
      );
    }
    const outcome = await run(ctx, { server: found.server, method: 'resources/read', name: found.uri });
    if (!outcome.ok) throw requestFailure(outcome.error, found.server, outcome.decision);
    // Checked by the call's result schema in the core (calls/result-schemas) before it got here.
    return checkedAs(outcome.result);
  });

  if (options.attach !== false) gateway.attach(server);
  return server;
}
