// The renderer's half of an MCP App: the ext-apps AppBridge over postMessage
// to one sandboxed frame, with every request the app may make answered by
// the host's gate. The bridge gets no MCP client: a tools/call goes to
// callAppTool (the host sends it to the app's own server through Host.call);
// what is meant for a model is shown and recorded, then dropped; a link goes
// to the host (openAppLink), which asks the person in its own link dialog and
// opens it only from their click there. Nothing here can answer a question,
// press a host button or reach the host API for the app: the app only ever
// talks to these handlers.
import './zod-jitless';
import { AppBridge, PostMessageTransport, buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext, McpUiResourcePermissions } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppView, HostApi } from '../../../../../shared/host-api/contract';
import { RateWindow } from './rate-window';

/** What the app asked for that the host shows instead of doing. */
export interface AppNotice {
  /** link-opened: the person opened it from the host's dialog; link-refused: it did not open (text says why). */
  kind: 'message' | 'model-context' | 'link-opened' | 'link-refused' | 'closed';
  text: string;
}

export interface AppBridgeHostOptions {
  app: AppView;
  frame: HTMLIFrameElement;
  api: Pick<HostApi, 'callAppTool' | 'recordAppEvent' | 'openAppLink' | 'closeApp'>;
  /** The call the app was opened for: its arguments and result go to the app once it is ready. */
  call: { args: Record<string, unknown>; result: unknown };
  hostContext: McpUiHostContext;
  onNotice(notice: AppNotice): void;
  /** The app asked for a height (clamped by the caller). */
  onHeight(height: number): void;
  /** The host closed the app (it sent too much); the frame must go. */
  onClosed(): void;
}

/** Requests an app may make in a window before the host closes it. */
const MAX_REQUESTS = 40;
const WINDOW_MS = 10_000;

/** The frame's allow attribute: exactly the permissions the resource declared. */
export function allowAttribute(app: AppView): string {
  const declared: McpUiResourcePermissions = {};
  for (const p of app.permissions) declared[p] = {};
  return buildAllowAttribute(declared);
}

/** The text of content blocks, for showing (never rendered as HTML). */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((b: unknown) => {
      const block = b as { type?: unknown; text?: unknown };
      return block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type)}]`;
    })
    .join(' ');
}

/** Connect the bridge to the frame's window; resolves once connected. `close` tears it down. */
export async function connectAppBridge(options: AppBridgeHostOptions): Promise<{
  close(): Promise<void>;
  setHostContext(context: McpUiHostContext): void;
}> {
  const { app, api, frame } = options;
  const target = frame.contentWindow;
  if (!target) throw new Error('the app frame has no window');
  const bridge = new AppBridge(
    null,
    { name: 'Countersign', version: '0.1.0' },
    {
      serverTools: {},
      // Shown and recorded, never delivered: Countersign has no model.
      message: { text: {} },
      updateModelContext: { text: {} },
      sandbox: { permissions: Object.fromEntries(app.permissions.map((p) => [p, {}])) },
    },
    { hostContext: options.hostContext },
  );
  const rate = new RateWindow(MAX_REQUESTS, WINDOW_MS);
  let closed = false;
  const shutDown = async (why: string) => {
    if (closed) return;
    closed = true;
    options.onNotice({ kind: 'closed', text: why });
    await api.recordAppEvent({ appId: app.appId, event: 'closed', text: why }).catch(() => undefined);
    options.onClosed();
  };
  /** Every request passes here first: a flood closes the app. */
  const admit = () => {
    if (closed) throw new Error('the app was closed');
    if (!rate.take(performance.now())) {
      void shutDown(`the app sent more than ${MAX_REQUESTS} requests in ${WINDOW_MS / 1000} s`);
      throw new Error('too many requests');
    }
  };
  const record = async (kind: 'message' | 'model-context', text: string) => {
    options.onNotice({ kind, text });
    const { recorded } = await api.recordAppEvent({ appId: app.appId, event: kind, text });
    if (!recorded) await shutDown('the app sent more messages than the history keeps for one app');
  };

  bridge.oncalltool = async (params) => {
    admit();
    const { result } = await api.callAppTool({ appId: app.appId, tool: params.name, args: params.arguments ?? {} });
    return result as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
  };
  bridge.onmessage = async (params) => {
    admit();
    await record('message', textOf(params.content));
    return { isError: true };
  };
  bridge.onupdatemodelcontext = async (params) => {
    admit();
    await record('model-context', [textOf(params.content), params.structuredContent ? '[structured]' : ''].join(' '));
    return {};
  };
  bridge.onopenlink = async (params) => {
    admit();
    // The host records the outcome; this waits for as long as the person takes in the host's dialog.
    const outcome = await api.openAppLink({ appId: app.appId, url: String(params.url) });
    options.onNotice(
      outcome.opened
        ? { kind: 'link-opened', text: params.url }
        : { kind: 'link-refused', text: `${params.url} (${outcome.reason ?? 'not opened'})` },
    );
    return outcome.opened ? {} : { isError: true };
  };
  bridge.onrequestdisplaymode = async () => {
    admit();
    return { mode: 'inline' };
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.onHeight(height);
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: options.call.args });
    void bridge.sendToolResult(options.call.result as Parameters<AppBridge['sendToolResult']>[0]);
  };
  await bridge.connect(new PostMessageTransport(target, target));
  return {
    async close() {
      closed = true;
      await bridge.close().catch(() => undefined);
      await api.closeApp({ appId: app.appId }).catch(() => undefined);
    },
    setHostContext: (context) => bridge.setHostContext(context),
  };
}
