// The host side of MCP Apps. An app is opened for one call's result and stays
// bound to that call's server: every tool call it makes goes through
// Host.call like any other (recorded, its questions asked in native dialogs),
// always to its own server, only to tools the server lets apps call. What it
// sends for a model is recorded and dropped: Countersign has no model. A link
// it asks to open becomes a URL question in the host's own dialog: only the
// person's click there opens it.
import { randomUUID } from 'node:crypto';
import { getToolUiResourceUri, isToolVisibilityModelOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Tool } from '@modelcontextprotocol/client';
import type { FormQuestion, Question, UrlQuestion } from '../../../shared/elicitation/types';
import type { AppEventKind } from '../../../shared/history/journal-types';
import type { AppView } from '../../../shared/host-api/contract';
import type { CallContext, HostObserver } from '../events';
import type { Host } from '../host';
import { HostError, messageOf } from '../host-error';
import type { Prompter } from '../prompter/prompter';
import { buildQuestion } from '../prompter/question-gate';
import { appContentSecurityPolicy } from './app-csp';
import { AppDocuments } from './app-documents';
import { appResourceOf } from './app-resource';
import { markDrawn, unmarkDrawn } from './app-questions';

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
  /** The connection the app's resource was read on: its links' questions name it as their call's. */
  connection: Pick<CallContext, 'era' | 'protocolVersion'>;
  events: number;
  /** A link of this app waits for the person: one at a time, so an app cannot stack dialogs. */
  linkWaiting: boolean;
  /** Stops the app's own calls (and withdraws its link question) when it is closed. */
  controller: AbortController;
  /** Set for an app opened to draw a question's form (SEP-3118): it may not call tools or open links. */
  question?: FormQuestion;
}

/**
 * What the renderer says of an app drawing a question's form: it holds the form (the app is up and took the
 * question), or the native form took over. Only the answer's history entry shows it (drawnByApp).
 */
export type AppQuestionEvent = 'question-drawn' | 'question-fallback';

/** What asking the person to open an app's link came to. */
export interface AppLinkOutcome {
  opened: boolean;
  reason?: string;
}

function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS - 1)}…` : flat;
}

/** The apps this host has open. */
export class AppSessions {
  readonly documents = new AppDocuments();
  /** Set by the front end that can show apps (the web shell, the desktop window); without it nothing opens. */
  origin: AppOrigin | undefined;
  private readonly open = new Map<string, OpenApp>();

  constructor(
    private readonly host: Pick<Host, 'call' | 'listTools'>,
    private readonly observer: HostObserver,
    /** The prompter whose dialog asks about links (the queue the front ends show); its consent opens them. */
    private readonly links: Pick<Prompter, 'ask'>,
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
    const view = await this.publish(origin, { server, tool, callId }, resourceUri, toolInfo(definition));
    await this.observer.appEvent?.({ kind: 'app', event: 'shown', callId, server, tool, resourceUri });
    return view;
  }

  /**
   * The app a form question names (SEP-3118), published to draw the form inside the host's dialog. Read from the
   * server that asked, never another: the question's own server, and only a question this app saw itself (one a
   * gateway relayed names a server of the gateway's, which may not be the one of that name here). The app gets no
   * tool calls and no links, and never answers: it proposes values the dialog checks, and the person's own button
   * sends them.
   */
  async openForQuestion(question: Question): Promise<AppView> {
    const origin = this.origin;
    if (!origin) throw new HostError('config', 'this window cannot show MCP Apps');
    if (question.mode !== 'form' || !question.appForm) throw new HostError('config', 'the question names no app');
    if (question.origin.reportedBy) throw new HostError('config', "a gateway's question is not drawn by an app");
    const { resourceUri } = question.appForm;
    const tool = question.origin.name ?? '';
    const app = { server: question.origin.server, tool, callId: question.id, question };
    return this.publish(origin, app, resourceUri, { name: tool, inputSchema: { type: 'object' } });
  }

  /**
   * Reads the app's resource from its server (a recorded call), publishes its document for one load and keeps the
   * app open; the oldest closes past MAX_OPEN_APPS.
   */
  private async publish(
    origin: AppOrigin,
    app: Pick<OpenApp, 'server' | 'tool' | 'callId' | 'question'>,
    resourceUri: string,
    tool: AppView['tool'],
  ): Promise<AppView> {
    const { result, call } = await this.host.call({ server: app.server, method: 'resources/read', name: resourceUri });
    const resource = appResourceOf(result, resourceUri);
    const documentId = this.documents.publish({
      html: resource.html,
      contentSecurityPolicy: appContentSecurityPolicy(resource.csp, origin.frameAncestor),
    });
    const view: AppView = {
      appId: randomUUID(),
      server: app.server,
      tool,
      resourceUri,
      documentUrl: `${origin.documentBase}${documentId}`,
      permissions: resource.permissions,
      prefersBorder: resource.prefersBorder,
    };
    this.open.set(view.appId, {
      ...app,
      view,
      connection: { era: call.era, protocolVersion: call.protocolVersion },
      events: 0,
      linkWaiting: false,
      controller: new AbortController(),
    });
    if (this.open.size > MAX_OPEN_APPS) this.close(this.open.keys().next().value!);
    return view;
  }

  /** A tools/call the app made: to its own server, through the host's one call path. */
  async callTool(appId: string, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const app = this.get(appId);
    if (app.question) throw new HostError('config', "an app drawing a question's form may not call tools");
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
  record(appId: string, event: Exclude<AppEventKind, 'shown'> | AppQuestionEvent, text: string): Promise<boolean> {
    const app = this.get(appId);
    if (event === 'question-drawn' || event === 'question-fallback') {
      if (!app.question) throw new HostError('config', 'that app draws no question');
      if (event === 'question-drawn') markDrawn(app.question, app.view.resourceUri);
      else unmarkDrawn(app.question);
      return Promise.resolve(true);
    }
    if (app.question) throw new HostError('config', "an app drawing a question's form sends nothing to record");
    return this.note(app, event, text);
  }

  /**
   * The app asked to open `url` (ui/open-link). Nothing opens here: the link is put to the person as a URL question
   * (built and analysed by the gate's one builder) in the host's own dialog, where only their click opens it, and
   * only after the host checked it once more (QueuePrompter.openUrl). A link that can never open (a blocked scheme,
   * too long, unparseable) is refused without asking; so is a second one while the first waits. Every outcome is in
   * the history. Resolves once the person decided, or the app was closed (its question is then withdrawn).
   */
  async openLink(appId: string, url: string): Promise<AppLinkOutcome> {
    const app = this.get(appId);
    if (app.question) return { opened: false, reason: "an app drawing a question's form may not open links" };
    const refuse = async (reason: string): Promise<AppLinkOutcome> => {
      await this.note(app, 'link-refused', `${url} (${reason})`);
      return { opened: false, reason };
    };
    if (app.linkWaiting) return refuse('another link of this app is waiting for the person');
    let question: UrlQuestion;
    try {
      const built = buildQuestion(
        { mode: 'url', message: `The app of "${app.tool}" asks to open this link.`, url },
        { call: this.linkCall(app), server: app.server, era: app.connection.era, round: 1, key: 'ui/open-link' },
      );
      if (built.mode !== 'url') throw new HostError('protocol', 'not a link');
      question = built;
    } catch (error) {
      return refuse(messageOf(error));
    }
    if (question.url.blocked) return refuse(question.url.warnings.map((w) => w.message).join(' '));
    question.origin.app = { resourceUri: app.view.resourceUri };
    app.linkWaiting = true;
    try {
      const decided = await this.links.ask(question, app.controller.signal);
      const href = question.url.href;
      if (decided.answer.action === 'accept' && decided.urlOpened === true) {
        await this.note(app, 'link-opened', href);
        return { opened: true };
      }
      const outcome = decided.answer.action === 'cancel' ? 'cancelled' : 'declined';
      await this.note(app, 'link-declined', `${href} (${outcome})`);
      return { opened: false, reason: `the person ${outcome} it` };
    } catch (error) {
      if (app.controller.signal.aborted) return { opened: false, reason: 'the app was closed' };
      throw error;
    } finally {
      app.linkWaiting = false;
    }
  }

  /** The call an app's link question names: the call the app was shown for, made by the app. */
  private linkCall(app: OpenApp): CallContext {
    return {
      callId: app.callId,
      server: app.server,
      ...app.connection,
      method: 'tools/call',
      name: app.tool,
      agent: `MCP App of ${app.tool}`,
    };
  }

  /**
   * One event of the app into the history. What the person decided about a link is always kept (it is bounded by
   * their clicks, and a link that opened must be on record even if the app closed meanwhile); everything the app
   * sends on its own counts towards the cap that closes a flooding app.
   */
  private async note(app: OpenApp, event: Exclude<AppEventKind, 'shown'>, text: string): Promise<boolean> {
    const appId = app.view.appId;
    const decidedByPerson = event === 'link-opened' || event === 'link-declined';
    if (!decidedByPerson) app.events++;
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

  /** Forget an app, stop its calls and withdraw its link question. */
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
