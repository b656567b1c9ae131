// The Servers domain of the host API: the list, adding, editing, removing and
// importing servers, reconnecting one, its catalog, and muting it.
import { toolNamesApp } from '../../apps/app-sessions';
import type { CatalogView, HostParams, HostResults, ServerView } from '../../../../shared/host-api/contract';
import { restoreHiddenSecrets } from '../../config/hidden-values';
import { parseServerConfig, type ServerEntry } from '../../config/server-config';
import { HostError, messageOf } from '../../host-error';
import { capLine } from '../../limits';
import { fillInputs, importPlan, importServers } from '../import-servers';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Servers handlers over `ctx`. */
export function serverHandlers(ctx: HandlerContext) {
  return {
    listServers: async () => {
      // A front end that connects later (a reloaded web page) hears of a standing file problem too.
      const problem = ctx.serversFile.problem?.message ?? null;
      if (problem) ctx.events.emit('serversFileProblem', { error: problem });
      // The banner shows the latest alert, so telling it again changes nothing where it is shown.
      const alert = ctx.lastAlert();
      if (alert) ctx.events.emit('appAlert', alert);
      return ctx.serverViews();
    },
    addServer: (p) => putServer(ctx, p.name, p.entry, false),
    updateServer: (p) => putServer(ctx, p.name, p.entry, true),
    removeServer: (p) => dropServer(ctx, p.name),
    importServers: (p) => importServerText(ctx, p),
    reconnectServer: (p) => reconnect(ctx, p.name),
    listCatalog: (p) => catalog(ctx, p.server),
    muteServer: async (p) => {
      ctx.requireServer(p.server);
      ctx.host.setMuted(p.server, p.muted);
      return ctx.emitServers();
    },
  } satisfies Partial<HandlerTable>;
}

async function putServer(
  ctx: HandlerContext,
  name: string,
  entry: ServerEntry,
  mustExist: boolean,
): Promise<ServerView[]> {
  // Checked against the file as it is on disk now, so a server added or removed by hand counts.
  await ctx.serversFile.update((raw, current) => {
    if (mustExist && !current[name]) throw new HostError('config', `no server named "${name}" is configured`);
    if (!mustExist && current[name])
      throw new HostError('config', `a server named "${name}" already exists`, {
        server: name,
        field: 'name',
        problem: 'already exists',
      });
    // Secrets were shown hidden (hideSecrets): a value sent back hidden keeps what is stored.
    const restored = restoreHiddenSecrets(name, entry, mustExist ? current[name] : undefined);
    // Re-validate with the config rules (the contract schema checks shape only).
    const checked = parseServerConfig({ mcpServers: { [name]: restored } })[name]!;
    raw[name] = mustExist ? { ...keptOnUpdate(raw[name], checked), ...checked } : checked;
  });
  return ctx.serverViews();
}

async function dropServer(ctx: HandlerContext, name: string): Promise<ServerView[]> {
  ctx.requireServer(name);
  await ctx.serversFile.update((raw, current) => {
    if (!current[name]) throw new HostError('config', `no server named "${name}" is configured`);
    delete raw[name];
  });
  return ctx.serverViews();
}

/** Plan an import (dry run: nothing written, nothing started), or write the servers the person agreed to. */
async function importServerText(
  ctx: HandlerContext,
  p: HostParams<'importServers'>,
): Promise<HostResults['importServers']> {
  const read = (existing: ReadonlySet<string>) => {
    const outcome = importServers(p.json, existing, p.fileName);
    const picked = Object.fromEntries(Object.entries(outcome.entries).filter(([n]) => !p.names || p.names.includes(n)));
    // The plan goes back to the front end: it is made from the entries as written, before the typed values
    // are filled in, so a value typed for an input in `args` or a URL never travels back.
    return { outcome, chosen: fillInputs(picked, p.inputs ?? {}, outcome.inputs), plan: importPlan(picked) };
  };
  if (p.dryRun) {
    const { outcome, plan } = read(new Set(ctx.serversFile.list.names()));
    return { imported: [], skipped: outcome.skipped, plan, inputs: outcome.inputs };
  }
  let result: ReturnType<typeof read> | undefined;
  await ctx.serversFile.update((raw, current) => {
    result = read(new Set(Object.keys(current)));
    Object.assign(raw, result.chosen);
  });
  const { outcome, chosen, plan } = result!;
  return { imported: Object.keys(chosen), skipped: outcome.skipped, plan, inputs: outcome.inputs };
}

async function reconnect(ctx: HandlerContext, name: string): Promise<ServerView> {
  ctx.requireServer(name);
  await ctx.host.disconnect(name);
  // Reconnect never asks for a sign-in: the view's Sign in button does.
  await ctx.connectQuietly(name);
  return ctx.serverViews().find((v) => v.name === name)!;
}

async function catalog(ctx: HandlerContext, server: string): Promise<CatalogView> {
  ctx.requireServer(server);
  const conn = await ctx.connect(server);
  const caps = conn.client.getServerCapabilities() ?? {};
  // A server that declares prompts or resources but cannot list them still shows its tools: the part it could not
  // list says why (the server's own words, one line), instead of the whole catalog failing.
  const unlisted: NonNullable<CatalogView['unlisted']> = {};
  const orNone = <T>(part: 'prompts' | 'resources', list: Promise<T[]>) =>
    list.catch((e: unknown) => {
      unlisted[part] = capLine(messageOf(e).replace(/\s+/g, ' ').trim(), 300);
      return [] as T[];
    });
  const [tools, prompts, resources] = await Promise.all([
    // The host's own listing: it remembers each tool's annotations for the dialogs.
    caps.tools ? ctx.host.listTools(server) : [],
    caps.prompts
      ? orNone(
          'prompts',
          conn.client.listPrompts().then((r) => r.prompts),
        )
      : [],
    caps.resources
      ? orNone(
          'resources',
          conn.client.listResources().then((r) => r.resources),
        )
      : [],
  ]);
  return {
    ...(Object.keys(unlisted).length > 0 ? { unlisted } : {}),
    tools: tools.map((t) => ({
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description ? { description: t.description } : {}),
      inputSchema: t.inputSchema,
      // Only where a front end can frame apps (the web shell sets apps.origin); elsewhere a plain result.
      ...(ctx.apps.origin && toolNamesApp(t) ? { app: true as const } : {}),
    })),
    prompts: prompts.map((p) => ({
      name: p.name,
      ...(p.title ? { title: p.title } : {}),
      ...(p.description ? { description: p.description } : {}),
      ...(p.arguments ? { arguments: p.arguments } : {}),
    })),
    resources: resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      ...(r.title ? { title: r.title } : {}),
      ...(r.description ? { description: r.description } : {}),
      ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    })),
  };
}

/** The entry keys the host API carries; the Servers form edits exactly these. */
const API_ENTRY_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers']);

/**
 * What an update from the app keeps of the entry on disk: keys the host API
 * cannot carry, so the form never showed them (sign-in settings, keys other
 * hosts write such as "disabled"). Without this, saving a server in the app
 * dropped its hand-written `oauth` settings. Sign-in settings go when the
 * server stops being an HTTP one.
 */
function keptOnUpdate(before: unknown, next: ServerEntry): Record<string, unknown> {
  if (typeof before !== 'object' || before === null || Array.isArray(before)) return {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (API_ENTRY_KEYS.has(key) || (key === 'oauth' && !('url' in next))) continue;
    kept[key] = value;
  }
  return kept;
}
