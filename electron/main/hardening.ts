// Denials applied to every WebContents and to the session: the window may
// not navigate, open windows, attach <webview>s, ask for permissions, reach
// the network or download anything but its own exports. The one exception is
// an MCP App's frames, within the rules of app-frames.ts. Written against
// small structural types so tests pass plain fakes; main.ts passes Electron's.
import { APP_EXPORT_PATH } from './app-export';
import { isAllowedAppRequest, isAllowedFrameNavigation, type FramePlace } from './app-frames';
import { APP_ORIGIN } from './app-protocol';

type Preventable = { preventDefault(): void };

/** A navigation as Electron reports it: the URL and, for frame events, the frame that would move and who asked. */
type Navigation = Preventable & { url: string; frame?: FramePlace | null; initiator?: FramePlace | null };

/** The WebContents surface these handlers use. */
export interface HardenableContents {
  on(
    event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect',
    listener: (details: Navigation) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  setWebRTCIPHandlingPolicy(policy: 'disable_non_proxied_udp'): void;
}

/** Denies navigation, redirects, new windows and <webview> for one WebContents. */
export function hardenWebContents(contents: HardenableContents, log: (line: string) => void = () => undefined): void {
  // The page never navigates: it is one document that talks to the host over IPC.
  // (will-navigate is not raised for main's own loadURL, so the first load still works.)
  contents.on('will-navigate', (details) => {
    details.preventDefault();
    log(`countersign: blocked navigation to ${String(details.url).slice(0, 200)}`);
  });
  // A frame moves only as an MCP App's frames may (app-frames.ts): its document, and web pages inside it.
  contents.on('will-frame-navigate', (details) => {
    if (isAllowedFrameNavigation(details)) return;
    details.preventDefault();
    log(`countersign: blocked frame navigation to ${String(details.url).slice(0, 200)}`);
  });
  contents.on('will-redirect', (details) => {
    const { url, frame, initiator } = details;
    if (isAllowedFrameNavigation({ url, frame, initiator, redirect: true })) return;
    details.preventDefault();
    log(`countersign: blocked redirect to ${String(details.url).slice(0, 200)}`);
  });
  // Links open only through openQuestionUrl and the gate, never as a window.
  contents.setWindowOpenHandler(({ url }) => {
    log(`countersign: blocked window.open of ${String(url).slice(0, 200)}`);
    return { action: 'deny' };
  });
  // WebRTC is the one way out that neither the policy nor the request filter sees; without a proxy it has none.
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('countersign: blocked a <webview>');
  });
}

/** The session surface these handlers use. */
export interface HardenableSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  setDevicePermissionHandler(handler: () => boolean): void;
  webRequest: {
    onBeforeRequest(
      filter: { urls: string[] },
      listener: (
        details: { url: string; frame?: FramePlace | null; resourceType?: string; initiatorOrigin?: string },
        callback: (response: { cancel: boolean }) => void,
      ) => void,
    ): void;
  };
  on(event: 'will-download', listener: (event: Preventable, item: { getURL(): string }) => void): unknown;
}

/** URL patterns the renderer's session may never fetch: the main process does all networking. */
export const BLOCKED_REQUEST_PATTERNS = ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'ftp://*/*'];

/** Downloads the window may start: blobs it made itself and the host's one-use export links (history export). */
export function isAllowedDownload(url: string): boolean {
  return url.startsWith(`blob:${APP_ORIGIN}/`) || url.startsWith(`${APP_ORIGIN}${APP_EXPORT_PATH}`);
}

/** Denies every permission, device, network request (but an app frame's) and foreign download in the session. */
export function hardenSession(session: HardenableSession, log: (line: string) => void = () => undefined): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`countersign: denied permission ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // CSP's connect-src 'none' already stops page requests; this also covers
  // what CSP does not see (prefetch, favicons, DNS-less sub-resources). An MCP
  // App's frames are the exception: their own policy says what they may reach.
  session.webRequest.onBeforeRequest({ urls: BLOCKED_REQUEST_PATTERNS }, (details, callback) => {
    if (isAllowedAppRequest(details)) return callback({ cancel: false });
    log(`countersign: blocked request to ${details.url.slice(0, 200)}`);
    callback({ cancel: true });
  });
  session.on('will-download', (event, item) => {
    if (isAllowedDownload(item.getURL())) return; // Electron asks where to save it
    event.preventDefault();
    log(`countersign: blocked download of ${item.getURL().slice(0, 200)}`);
  });
}
