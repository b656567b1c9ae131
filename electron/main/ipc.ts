// The host API over Electron IPC: one invoke channel (the method travels as
// data) and one event channel, both named in shared/host-api/names.ts. Every
// request passes the sender check, then HostService validates the params
// against the contract; nothing here trusts what the renderer sent.
import { parseHostParams, type HostEventName, type HostEvents } from '../../shared/host-api/contract';
import { EVENT_CHANNEL, HOST_EVENT_NAMES, INVOKE_CHANNEL } from '../../shared/host-api/names';
import { toWireError, type WireError } from '../../shared/host-api/wire';
import type { HostService } from '../core/service/host-service';
import type { OpenExternalGate } from './open-external-gate';
import { checkSender, senderFactsOf } from './sender-check';

/** The part of HostService the IPC layer uses. */
export type HostServicePort = Pick<HostService, 'invoke' | 'on'>;

/**
 * What an invoke resolves to in the preload. Errors travel as data because
 * Electron rewrites a thrown error's message ("Error invoking remote
 * method ..."); the preload turns `ok: false` back into a rejection.
 */
export type InvokeReply = { ok: true; value: unknown } | { ok: false; error: WireError };

/** The fields of an IpcMainInvokeEvent the handler reads. */
export interface InvokeEventLike {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/** ipcMain, as far as this module uses it. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, method: unknown, params: unknown) => Promise<InvokeReply>,
  ): void;
  removeHandler(channel: string): void;
}

export interface InvokeHandlerDeps {
  service: HostServicePort;
  gate: Pick<OpenExternalGate, 'consent'>;
  /** The main window's webContents id, or undefined while there is none. */
  mainWebContentsId(): number | undefined;
  /** The label of the window with this webContents ("window 1"), kept in the history with the human's answers. */
  windowLabel?(webContentsId: number): string | undefined;
  log(line: string): void;
}

function errorReply(e: unknown): InvokeReply {
  return { ok: false, error: toWireError(e) };
}

/** Builds the INVOKE_CHANNEL handler: sender check, then the service. Never throws. */
export function createInvokeHandler(
  deps: InvokeHandlerDeps,
): (event: InvokeEventLike, method: unknown, params: unknown) => Promise<InvokeReply> {
  return async (event, method, params) => {
    const verdict = checkSender(senderFactsOf(event), deps.mainWebContentsId());
    if (!verdict.ok) {
      deps.log(`countersign: refused IPC request ${JSON.stringify(String(method).slice(0, 80))}: ${verdict.reason}`);
      return { ok: false, error: { message: 'refused: this frame may not call the host', code: 'forbidden' } };
    }
    try {
      if (method === 'openQuestionUrl') return { ok: true, value: await openWithConsent(deps, params) };
      return { ok: true, value: await deps.service.invoke(method, params, deps.windowLabel?.(event.sender.id)) };
    } catch (e) {
      return errorReply(e);
    }
  };
}

// The main window asked to open a question's link: that request is the
// human's consent to exactly that question's URL, and to nothing else. The
// consent lives only while this one request runs (a sign-in's link is opened
// by the core within that request, through the same gate).
async function openWithConsent(deps: InvokeHandlerDeps, params: unknown): Promise<unknown> {
  const parsed = parseHostParams('openQuestionUrl', params);
  if (!parsed.ok) return deps.service.invoke('openQuestionUrl', params); // the service words the error
  const questions = await deps.service.invoke('listQuestions', {});
  const question = questions.find((q) => q.id === parsed.value.questionId);
  // A sign-in's "Open in browser" is the same consent, to exactly its authorization link.
  const signIn = question
    ? undefined
    : (await deps.service.invoke('listSignIns', {})).find((q) => q.id === parsed.value.questionId && !q.waiting);
  const href = question?.mode === 'url' ? question.url.href : signIn?.url.href;
  const withdraw = href !== undefined ? deps.gate.consent(href) : undefined;
  try {
    return await deps.service.invoke('openQuestionUrl', parsed.value);
  } finally {
    withdraw?.();
  }
}

/** Installs the handler on ipcMain; returns the function that removes it. */
export function registerHostIpc(ipcMain: IpcMainLike, handler: ReturnType<typeof createInvokeHandler>): () => void {
  ipcMain.handle(INVOKE_CHANNEL, handler);
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** Sends one event to the window (webContents.send(EVENT_CHANNEL, ...) in main). */
export type EventSink = <E extends HostEventName>(event: E, payload: HostEvents[E]) => void;

/** Forwards every contract event from the service to `send`; returns the unsubscribe function. */
export function forwardHostEvents(service: HostServicePort, send: EventSink): () => void {
  const offs = HOST_EVENT_NAMES.map((name) => service.on(name, (payload) => send(name, payload)));
  return () => {
    for (const off of offs) off();
  };
}

/** The event channel's name, re-exported for main.ts's webContents.send. */
export { EVENT_CHANNEL };
