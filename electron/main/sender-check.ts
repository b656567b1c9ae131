// Who may call the host API over IPC: only the main frame of the one
// Countersign window, and only while it shows the app's own page. A subframe,
// another window, or the window after a (blocked, but still) navigation away
// gets nothing, whatever channel name it knows.
import { isAppUrl } from './app-protocol';

/** What the check needs from an IpcMainInvokeEvent (a subset, so tests can build one). */
export interface SenderFacts {
  /** `event.sender.id`: the WebContents that sent the message. */
  senderId: number;
  /** `event.senderFrame`: null once the frame navigated or was destroyed. */
  frame: { url: string; isMainFrame: boolean } | null;
}

/** The verdict, with a reason for the log when refused. */
export type SenderVerdict = { ok: true } | { ok: false; reason: string };

/** Accepts only the main window's main frame showing an app:// page. */
export function checkSender(facts: SenderFacts, mainWebContentsId: number | undefined): SenderVerdict {
  if (mainWebContentsId === undefined) return { ok: false, reason: 'no main window' };
  if (facts.senderId !== mainWebContentsId)
    return { ok: false, reason: `web contents ${facts.senderId} is not the main window` };
  if (!facts.frame) return { ok: false, reason: 'the sending frame is gone' };
  if (!facts.frame.isMainFrame) return { ok: false, reason: 'a subframe may not call the host' };
  if (!isAppUrl(facts.frame.url))
    return { ok: false, reason: `the frame shows ${JSON.stringify(facts.frame.url.slice(0, 200))}, not the app` };
  return { ok: true };
}

/** The facts of a real IpcMainInvokeEvent (structural, so no electron import). */
export function senderFactsOf(event: {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}): SenderFacts {
  const frame = event.senderFrame;
  return { senderId: event.sender.id, frame: frame ? { url: frame.url, isMainFrame: frame.parent === null } : null };
}
