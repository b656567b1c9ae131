// The renderer's half of an app drawing a question's form (SEP-3118): the
// ext-apps AppBridge over postMessage to one sandboxed frame, bound to one
// question. Once the app has started and declared it can take a question, the
// host forwards the question as the standard `elicitation/create`; each reply
// is handed to the dialog as a *proposal* (checked there against the
// question's schema), and the request is sent again so the app can propose
// anew. The app gets nothing else: no tool calls, no links, no model, no way
// to the host's buttons. Every way it can fail ends in `onFail`, and the
// dialog then shows the native form.
import './zod-jitless';
import { z } from 'zod';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { FormQuestion } from '../../../../../shared/elicitation/types';
import type { AppView } from '../../../../../shared/host-api/contract';
import { RateWindow } from './rate-window';

/** How long the app has to start (ui/initialize, then initialized) before the native form takes over. */
export const APP_QUESTION_START_MS = 8_000;
/** Replies (proposals) an app may send in a window before the host stops listening to it. */
const MAX_REPLIES = 10;
const REPLY_WINDOW_MS = 10_000;
/** The host waits for the person, not a clock: the longest timeout a browser timer takes. */
const NO_TIMEOUT_MS = 2_147_483_647;

export interface QuestionBridgeOptions {
  app: AppView;
  frame: HTMLIFrameElement;
  question: FormQuestion;
  hostContext: McpUiHostContext;
  /** The app started and took the question: it draws the form now. */
  onDrawn(): void;
  /** One reply of the app to the question, unchecked (the dialog checks it against the schema). */
  onReply(result: unknown): void;
  /** The app cannot draw this question; the sentence says why. Called at most once. */
  onFail(reason: string): void;
  onHeight(height: number): void;
}

/** The request the app gets: the question as the server asked it (its schema, message and app hint). */
function elicitRequest(question: FormQuestion) {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form' as const,
      message: question.message,
      requestedSchema: question.requestedSchema,
      ...(question.appForm ? { _meta: { ui: { resourceUri: question.appForm.resourceUri } } } : {}),
    },
  };
}

/** Connect to the frame's window (before its document loads, so its first message is heard). */
export async function connectQuestionBridge(options: QuestionBridgeOptions): Promise<{ close(): Promise<void> }> {
  const { frame, question } = options;
  const target = frame.contentWindow;
  if (!target) throw new Error('the app frame has no window');
  // Nothing but the question: no server tools, no model, no links. `elicitation` is SEP-3118's member; the
  // package's type does not have it yet, so it is added here and sent as it is.
  const withElicitation: McpUiHostCapabilities & { elicitation: object } = { elicitation: {} };
  const hostCapabilities: McpUiHostCapabilities = withElicitation;
  const bridge = new AppBridge(null, { name: 'Countersign', version: '0.1.0' }, hostCapabilities, {
    hostContext: options.hostContext,
  });
  let done = false;
  const fail = (reason: string) => {
    if (done) return;
    done = true;
    clearTimeout(startTimer);
    options.onFail(reason);
    void bridge.close().catch(() => undefined);
  };
  const startTimer = setTimeout(
    () => fail(`the app did not start within ${APP_QUESTION_START_MS / 1000} s`),
    APP_QUESTION_START_MS,
  );
  const refuse = (what: string) => async () => {
    throw new Error(`an app drawing a question's form may not ${what}`);
  };
  bridge.oncalltool = refuse('call tools');
  bridge.onmessage = refuse('send messages');
  bridge.onupdatemodelcontext = refuse('send model context');
  bridge.onopenlink = refuse('open links');
  bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.onHeight(height);
  };

  // The capabilities the app declared, as it sent them: the package parses ui/initialize with a schema that
  // has no `elicitation` member yet and drops it.
  let declared: unknown;
  const replies = new RateWindow(MAX_REPLIES, REPLY_WINDOW_MS);
  const ask = () => {
    if (done) return;
    bridge.request(elicitRequest(question), z.unknown(), { timeout: NO_TIMEOUT_MS }).then(
      (result) => {
        if (done) return;
        if (!replies.take(performance.now()))
          return fail(`the app sent more than ${MAX_REPLIES} proposals in ${REPLY_WINDOW_MS / 1000} s`);
        options.onReply(result);
        ask();
      },
      (error: unknown) =>
        fail(`the app could not take the question (${error instanceof Error ? error.message : String(error)})`),
    );
  };
  bridge.oninitialized = () => {
    if (done) return;
    clearTimeout(startTimer);
    const caps = declared as { elicitation?: unknown } | undefined;
    if (typeof caps?.elicitation !== 'object' || caps.elicitation === null)
      return fail('the app does not say it can draw a question');
    options.onDrawn();
    ask();
  };
  const transport = new PostMessageTransport(target, target);
  await bridge.connect(transport);
  const inner = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: unknown; params?: { appCapabilities?: unknown } };
    if (m.method === 'ui/initialize') declared = m.params?.appCapabilities;
    inner?.call(transport, message, extra);
  };
  return {
    async close() {
      done = true;
      clearTimeout(startTimer);
      await bridge.close().catch(() => undefined);
    },
  };
}
