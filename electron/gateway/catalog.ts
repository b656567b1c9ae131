// One catalogue over every configured server: their tools, prompts and
// resources under the gateway's names (naming.ts), and the way back from an
// exposed name to the server and its own name. Lists are cached per server
// until that server says its list changed; a server that is down or slow
// is left out of a listing (and logged) instead of failing the whole list.
// A server that needs the user to sign in is not left out silently: the
// agent sees one stand-in tool for it that says so (signInNeededTool).
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { Host } from '../core/host';
import { isHostError, messageOf } from '../core/host-error';
import { signInNeededSentence } from './results';
import { exposedNames, exposedResourceUris, keyOf, parseExplicitResourceUri } from './naming';

/** The three lists a server can change. */
export type ListKind = 'tools' | 'prompts' | 'resources';

interface ResourceListing {
  resources: Resource[];
  templates: ResourceTemplate[];
}

interface Listings {
  tools: Tool[];
  prompts: Prompt[];
  resources: ResourceListing;
}

/** Where an exposed tool or prompt really lives. */
export interface Route<T> {
  server: string;
  name: string;
  item: T;
}

const EMPTY: Listings = { tools: [], prompts: [], resources: { resources: [], templates: [] } };

/** The stand-in tool's own name on its server, before the gateway's naming. */
const SIGN_IN_NEEDED_TOOL = 'countersign_sign_in_needed';

/** The tool that stands in for a server whose listing ended in "sign-in needed" or a sign-in that did not complete. */
function signInNeededTool(server: string, name: string): Tool {
  return {
    name,
    description: `Countersign: ${signInNeededSentence(server)}. Calling this tool only returns this message.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  };
}

/** A listing that failed because the server wants a sign-in (needed, declined or not completed). */
function needsSignIn(error: unknown): boolean {
  return isHostError(error, 'sign-in-needed') || isHostError(error, 'auth');
}

/**
 * A tool under its exposed name. Of `execution` only `taskSupport` is kept
 * (and only a known value): the gateway offers a task exactly where the
 * server does, and follows the server's task itself (agent-server.ts).
 */
function exposeTool(tool: Tool, name: string): Tool {
  const { execution, ...rest } = tool;
  const support = execution?.taskSupport;
  const known = support === 'required' || support === 'optional' || support === 'forbidden';
  return { ...rest, name, ...(known ? { execution: { taskSupport: support } } : {}) };
}

export class Catalog {
  private readonly cache = new Map<string, Partial<Record<ListKind, Promise<unknown>>>>();
  private toolRoutes = new Map<string, Route<Tool>>();
  private promptRoutes = new Map<string, Route<Prompt>>();
  private resourceRoutes = new Map<string, { server: string; uri: string }>();
  private templates: Array<{ server: string; prefix: string }> = [];
  /** URIs more than one server lists, with those servers. */
  private sharedUris = new Map<string, string[]>();
  /** Exposed names of the stand-in tools of the last listing, with their servers. */
  private signInStandIns = new Map<string, string>();

  constructor(
    private readonly host: Host,
    /** Called before a server is used, so its list-changed notifications are heard. */
    private readonly prepare: (server: string) => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly timeoutMs = 15_000,
  ) {}

  /** Forget a server's cached lists (all, or one kind). */
  invalidate(server: string, kind?: ListKind): void {
    const entry = this.cache.get(server);
    if (!entry) return;
    if (kind) delete entry[kind];
    else this.cache.delete(server);
  }

  private fetch<K extends ListKind>(server: string, kind: K): Promise<Listings[K]> {
    let entry = this.cache.get(server);
    if (!entry) {
      entry = {};
      this.cache.set(server, entry);
    }
    const cached = entry[kind] as Promise<Listings[K]> | undefined;
    if (cached) return cached;
    const loading = this.load(server, kind);
    entry[kind] = loading;
    // A failure is not cached: the next listing tries again.
    loading.catch(() => {
      if (this.cache.get(server)?.[kind] === loading) delete this.cache.get(server)![kind];
    });
    return loading;
  }

  private async load<K extends ListKind>(server: string, kind: K): Promise<Listings[K]> {
    await this.prepare(server);
    const conn = await this.host.connect(server);
    const caps = conn.client.getServerCapabilities() ?? {};
    if (kind === 'tools') return (caps.tools ? await this.host.listTools(server) : []) as Listings[K];
    if (kind === 'prompts') return (caps.prompts ? (await conn.client.listPrompts()).prompts : []) as Listings[K];
    const none: ResourceListing = { resources: [], templates: [] };
    if (!caps.resources) return none as Listings[K];
    const [resources, templates] = await Promise.all([
      conn.client.listResources().then((r) => r.resources),
      conn.client.listResourceTemplates().then(
        (r) => r.resourceTemplates,
        () => [] as ResourceTemplate[],
      ),
    ]);
    const listing: ResourceListing = { resources, templates };
    return listing as Listings[K];
  }

  /** Every server's list of one kind; servers that fail or are too slow count as empty. */
  private async gather<K extends ListKind>(
    servers: readonly string[],
    kind: K,
  ): Promise<Array<{ server: string; list: Listings[K]; signInNeeded?: true }>> {
    return Promise.all(
      servers.map(async (server) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
        });
        try {
          return { server, list: await Promise.race([this.fetch(server, kind), timeout]) };
        } catch (e) {
          this.log(`countersign gateway: left server "${server}" out of the ${kind} list: ${messageOf(e)}`);
          return { server, list: EMPTY[kind], ...(needsSignIn(e) ? { signInNeeded: true as const } : {}) };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  /** The tools of all servers under their exposed names. */
  async tools(servers: readonly string[]): Promise<Tool[]> {
    const lists = await this.gather(servers, 'tools');
    const standIns = lists.flatMap(({ server, signInNeeded }) =>
      signInNeeded ? [{ server, name: SIGN_IN_NEEDED_TOOL }] : [],
    );
    const names = exposedNames([
      ...lists.flatMap(({ server, list }) => list.map((t) => ({ server, name: t.name }))),
      ...standIns,
    ]);
    const routes = new Map<string, Route<Tool>>();
    const out: Tool[] = [];
    const signInStandIns = new Map<string, string>();
    for (const key of standIns) {
      const name = names.get(keyOf(key))!;
      signInStandIns.set(name, key.server);
      out.push(signInNeededTool(key.server, name));
    }
    this.signInStandIns = signInStandIns;
    for (const { server, list } of lists) {
      for (const tool of list) {
        const name = names.get(keyOf({ server, name: tool.name }))!;
        if (routes.has(name)) continue; // a server listing one tool twice
        routes.set(name, { server, name: tool.name, item: tool });
        out.push(exposeTool(tool, name));
      }
    }
    this.toolRoutes = routes;
    return out;
  }

  /** The prompts of all servers under their exposed names. */
  async prompts(servers: readonly string[]): Promise<Prompt[]> {
    const lists = await this.gather(servers, 'prompts');
    const names = exposedNames(lists.flatMap(({ server, list }) => list.map((p) => ({ server, name: p.name }))));
    const routes = new Map<string, Route<Prompt>>();
    const out: Prompt[] = [];
    for (const { server, list } of lists) {
      for (const prompt of list) {
        const name = names.get(keyOf({ server, name: prompt.name }))!;
        if (routes.has(name)) continue;
        routes.set(name, { server, name: prompt.name, item: prompt });
        out.push({ ...prompt, name });
      }
    }
    this.promptRoutes = routes;
    return out;
  }

  /** Resources and templates of all servers; URIs listed by two servers get the explicit form. */
  async resources(servers: readonly string[]): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    const lists = await this.gather(servers, 'resources');
    const uris = exposedResourceUris(
      lists.flatMap(({ server, list }) => list.resources.map((r) => ({ server, name: r.uri }))),
    );
    const routes = new Map<string, { server: string; uri: string }>();
    const resources: Resource[] = [];
    const templates: ResourceTemplate[] = [];
    const prefixes: Array<{ server: string; prefix: string }> = [];
    const shared = new Map<string, string[]>();
    for (const { server, list } of lists) {
      for (const r of list.resources) {
        const uri = uris.get(keyOf({ server, name: r.uri }))!;
        if (uri !== r.uri) shared.set(r.uri, [...(shared.get(r.uri) ?? []), server]);
        if (routes.has(uri)) continue;
        routes.set(uri, { server, uri: r.uri });
        resources.push({ ...r, uri });
      }
      for (const t of list.templates) {
        templates.push(t);
        const prefix = t.uriTemplate.split('{')[0] ?? '';
        if (prefix !== '') prefixes.push({ server, prefix });
      }
    }
    this.resourceRoutes = routes;
    this.templates = prefixes;
    this.sharedUris = shared;
    return { resources, templates };
  }

  /** The server a stand-in tool of the last listing speaks for (it reaches no server). */
  signInNeededFor(name: string): string | undefined {
    return this.signInStandIns.get(name);
  }

  /** The server and tool behind an exposed name (lists again once if unknown). */
  async resolveTool(name: string, servers: readonly string[]): Promise<Route<Tool> | undefined> {
    if (!this.toolRoutes.has(name)) await this.tools(servers);
    return this.toolRoutes.get(name);
  }

  /** The server and tool behind an exposed name, from the last listing only (the pass-through path). */
  knownTool(name: string): Route<Tool> | undefined {
    return this.toolRoutes.get(name);
  }

  /** The server and prompt behind an exposed name (lists again once if unknown). */
  async resolvePrompt(name: string, servers: readonly string[]): Promise<Route<Prompt> | undefined> {
    if (!this.promptRoutes.has(name)) await this.prompts(servers);
    return this.promptRoutes.get(name);
  }

  /**
   * The server and URI behind an exposed resource URI: a listed one, the
   * explicit `countersign://server/uri` form, or a URI under exactly one
   * server's resource template (the longest literal prefix wins).
   */
  async resolveResource(
    uri: string,
    servers: readonly string[],
  ): Promise<{ server: string; uri: string } | { ambiguous: string[] } | undefined> {
    const found = this.findResource(uri, servers);
    if (found) return found;
    await this.resources(servers);
    return this.findResource(uri, servers);
  }

  private findResource(
    uri: string,
    servers: readonly string[],
  ): { server: string; uri: string } | { ambiguous: string[] } | undefined {
    const listed = this.resourceRoutes.get(uri);
    if (listed) return listed;
    const shared = this.sharedUris.get(uri);
    if (shared) return { ambiguous: [...new Set(shared)] };
    const explicit = parseExplicitResourceUri(uri);
    if (explicit && servers.includes(explicit.server)) return explicit;
    const matches = this.templates.filter((t) => uri.startsWith(t.prefix));
    if (matches.length === 0) return undefined;
    const longest = Math.max(...matches.map((m) => m.prefix.length));
    const best = [...new Set(matches.filter((m) => m.prefix.length === longest).map((m) => m.server))];
    return best.length === 1 ? { server: best[0]!, uri } : { ambiguous: best };
  }
}
