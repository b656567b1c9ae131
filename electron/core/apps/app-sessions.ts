// The host side of MCP Apps. An app is opened for one call's result and stays
// bound to that call's server: every tool call it makes goes through
// Host.call like any other (recorded, its questions asked in native dialogs),
// always to its own server, only to tools the server lets apps call. What it
// sends for a model is recorded and dropped: Countersign has no model.
import { randomUUID } from 'node:crypto';
import { getToolUiResourceUri, isToolVisibilityModelOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Tool } from '@modelcontextprotocol/client';
import type { AppEventKind } from '../../../shared/history/journal-types';
import type { AppView } from '../../../shared/host-api/contract';
import type { HostObserver } from '../events';
import type { Host } from '../host';
import { HostError } from '../host-error';
import { appContentSecurityPolicy } from './app-csp';
import { AppDocuments } from './app-documents';
import { appResourceOf } from './app-resource';

/** Where app documents are served from (a second loopback origin), and the one page that may frame them. */
export interface AppOrigin {
  /** e.g. http://127.0.0.1:PORT/app/ — the document id is appended. */
  documentBase: string;
  /** The renderer's origin: the app policy's frame-ancestors. */
  frameAncestor: string;
}

/** Apps open at once; opening one more closes the oldest. */
const MAX_OPEN_APPS = 32;
/** Events recorded per app; past this the app is closed (a flood is not a conversation). */
export const MAX_APP_EVENTS = 50;
/** An event's text in the history: one line, cut. */
const MAX_DETAIL_CHARS = 500;

interface OpenApp {
  view: AppView;
  server: string;
  tool: string;
  callId: string;
  events: number;
  /** Stops the app's own calls when it is closed. */
  controller: AbortController;
}

function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS - 1)}…` : flat;
}

/** The apps this host has open. */
export class AppSessions {
  readonly documents = new AppDocuments();
  /** Set by the front end that can show apps (the web shell); without it nothing opens. */
  origin: AppOrigin | undefined;
  private readonly open = new Map<string, OpenApp>();

  constructor(
    private readonly host: Pick<Host, 'call' | 'listTools'>,
    private readonly observer: HostObserver,
  ) {}

  /** The app of a completed call's tool, published for its frame; null when the tool names none. */
  async openFor(server: string, tool: string, callId: string): Promise<AppView | null> {
    const origin = this.origin;
    if (!origin) throw new HostError('config', 'this window cannot show MCP Apps');
    const definition = (await this.host.listTools(server)).find((t) => t.name === tool);
    if (!definition) throw new HostError('config', `the server has no tool "${tool}"`);
    let resourceUri: string | undefined;
    try {
      resourceUri = getToolUiResourceUri(definition);
    } catch {
      throw new HostError('protocol', 'the tool names an app that is not a ui:// resource');
    }
    if (!resourceUri) return null;
    if (resourceUri.length > 2048) throw new HostError('protocol', 'the app resource URI is too long');
    const { result } = await this.host.call({ server, method: 'resources/read', name: resourceUri });
    const resource = appResourceOf(result, resourceUri);
    const documentId = this.documents.publish({
      html: resource.html,
      contentSecurityPolicy: appContentSecurityPolicy(resource.csp, origin.frameAncestor),
    });
    const appId = randomUUID();
    const view: AppView = {
      appId,
      server,
      tool: toolInfo(definition),
      resourceUri,
      documentUrl: `${origin.documentBase}${documentId}`,
      permissions: resource.permissions,
      prefersBorder: resource.prefersBorder,
    };
    this.open.set(appId, { view, server, tool, callId, events: 0, controller: new AbortController() });
    if (this.open.size > MAX_OPEN_APPS) this.close(this.open.keys().next().value!);
    await this.observer.appEvent?.({ kind: 'app', event: 'shown', callId, server, tool, resourceUri });
    return view;
  }

  /** A tools/call the app made: to its own server, through the host's one call path. */
  async callTool(appId: string, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const app = this.get(appId);
    const definition = (await this.host.listTools(app.server)).find((t) => t.name === tool);
    // The spec: a tool the server shows to the model only is not the app's to call.
    if (!definition || isToolVisibilityModelOnly(definition))
      throw new HostError('config', `the app may not call "${tool}"`);
    const { result } = await this.host.call({
      server: app.server,
      method: 'tools/call',
      name: tool,
      arguments: args,
      agent: `MCP App of ${app.tool}`,
      signal: app.controller.signal,
    });
    return result;
  }

  /** Record what the app did (its text cut to one line); false once the app was closed for flooding. */
  async record(appId: string, event: Exclude<AppEventKind, 'shown'>, text: string): Promise<boolean> {
    const app = this.get(appId);
    app.events++;
    const base = { kind: 'app' as const, callId: app.callId, server: app.server, tool: app.tool };
    if (app.events > MAX_APP_EVENTS) {
      this.close(appId);
      await this.observer.appEvent?.({
        ...base,
        resourceUri: app.view.resourceUri,
        event: 'closed',
        detail: `more than ${MAX_APP_EVENTS} messages`,
      });
      return false;
    }
    const detail = oneLine(text);
    await this.observer.appEvent?.({
      ...base,
      resourceUri: app.view.resourceUri,
      event,
      ...(detail ? { detail } : {}),
    });
    if (event === 'closed') this.close(appId);
    return true;
  }

  /** Forget an app and stop its calls. */
  close(appId: string): boolean {
    const app = this.open.get(appId);
    if (!app) return false;
    this.open.delete(appId);
    app.controller.abort(new HostError('cancelled', 'the app was closed'));
    return true;
  }

  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }

  private get(appId: string): OpenApp {
    const app = this.open.get(appId);
    if (!app) throw new HostError('config', 'that app is not open');
    return app;
  }
}

/** Whether a tool's definition names an app (a malformed name counts: opening it then says what is wrong). */
export function toolNamesApp(tool: Tool): boolean {
  try {
    return getToolUiResourceUri(tool) !== undefined;
  } catch {
    return true;
  }
}

/** The tool as the app's host context names it (the definition's own fields, nothing of the host's). */
function toolInfo(tool: Tool): AppView['tool'] {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
  };
}
