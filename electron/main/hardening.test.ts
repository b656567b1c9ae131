import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  BLOCKED_REQUEST_PATTERNS,
  hardenSession,
  hardenWebContents,
  isAllowedDownload,
  type HardenableContents,
  type HardenableSession,
} from './hardening';

function fakeContents() {
  const emitter = new EventEmitter();
  let openHandler: ((d: { url: string }) => { action: string }) | undefined;
  const webrtc: string[] = [];
  const contents = Object.assign(emitter, {
    setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
    setWebRTCIPHandlingPolicy: (policy: string) => void webrtc.push(policy),
  }) as unknown as HardenableContents & EventEmitter;
  type Frame = { url: string; parent: unknown; frameTreeNodeId?: number };
  const fire = (event: string, url: string, frame?: Frame | null, initiator?: Frame | null) => {
    const details = { url, frame, initiator, preventDefault: vi.fn() };
    emitter.emit(event, details, url);
    return details.preventDefault;
  };
  return { contents, fire, webrtc, open: (url: string) => openHandler!({ url }) };
}

describe('web contents hardening', () => {
  it('prevents every navigation, frame navigation and redirect', () => {
    const { contents, fire } = fakeContents();
    const log = vi.fn();
    hardenWebContents(contents, log);
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      for (const url of [
        'https://evil.example/',
        'app://countersign/index.html',
        'file:///etc/passwd',
        'javascript:alert(1)',
      ]) {
        expect(fire(event, url)).toHaveBeenCalledOnce();
      }
    }
    expect(log).toHaveBeenCalledTimes(12);
  });

  it("lets an MCP App's frame load its document only, and frames inside an app load web pages", () => {
    const { contents, fire } = fakeContents();
    const log = vi.fn();
    hardenWebContents(contents, log);
    const doc = 'app://mcp-apps/app/AAAAAAAAAAAAAAAAAAAAAA';
    const page = { url: 'app://countersign/index.html', parent: null };
    const appFrame = { url: doc, parent: page, frameTreeNodeId: 2 };
    const inside = { url: 'https://maps.example/embed', parent: appFrame };
    const deeper = { url: 'https://tiles.example/', parent: inside };
    // The page loads the app's document into its frame; nothing else moves it there.
    expect(fire('will-frame-navigate', doc, appFrame, page)).not.toHaveBeenCalled();
    expect(fire('will-frame-navigate', doc, appFrame, appFrame)).toHaveBeenCalledOnce();
    expect(fire('will-frame-navigate', doc, appFrame, null)).toHaveBeenCalledOnce();
    // The app cannot take its frame to a web page, the renderer or another scheme; the page moves nowhere.
    for (const url of ['https://evil.example/', 'app://countersign/index.html', 'data:text/html,x', 'about:srcdoc'])
      expect(fire('will-frame-navigate', url, appFrame, page), url).toHaveBeenCalledOnce();
    expect(fire('will-frame-navigate', doc, page, page)).toHaveBeenCalledOnce();
    expect(fire('will-navigate', doc, page)).toHaveBeenCalledOnce();
    // The app's own frame is never redirected (its documents are served, not redirected).
    expect(fire('will-redirect', doc, appFrame, page)).toHaveBeenCalledOnce();
    // A frame the app embeds (its declared frameDomains) may load and be redirected between web pages, when the
    // app (or what it embeds) asks; the same frame wrapped anew (one frameTreeNodeId) is the same app.
    expect(fire('will-frame-navigate', 'https://maps.example/embed', inside, appFrame)).not.toHaveBeenCalled();
    expect(fire('will-redirect', 'https://maps.example/next', inside, appFrame)).not.toHaveBeenCalled();
    expect(fire('will-frame-navigate', 'https://tiles.example/', deeper, inside)).not.toHaveBeenCalled();
    const rewrapped = { url: doc, parent: page, frameTreeNodeId: 2 };
    expect(fire('will-frame-navigate', 'https://maps.example/', inside, rewrapped)).not.toHaveBeenCalled();
    for (const url of ['app://countersign/index.html', doc, 'file:///etc/passwd', 'javascript:alert(1)'])
      expect(fire('will-frame-navigate', url, inside, appFrame), url).toHaveBeenCalledOnce();
    // The page may navigate any frame below it: it must not reach the web through one inside an app.
    expect(fire('will-frame-navigate', 'https://attacker.example/?secret', deeper, page)).toHaveBeenCalledOnce();
    expect(fire('will-frame-navigate', 'https://attacker.example/', inside, page)).toHaveBeenCalledOnce();
    expect(fire('will-frame-navigate', 'https://attacker.example/', inside, null)).toHaveBeenCalledOnce();
    // Another app's frames cannot steer this one's.
    const otherApp = { url: 'app://mcp-apps/app/BBBBBBBBBBBBBBBBBBBBBB', parent: page, frameTreeNodeId: 3 };
    expect(fire('will-frame-navigate', 'https://maps.example/', inside, otherApp)).toHaveBeenCalledOnce();
    // A frame the page made for itself (same origin as the page) is no app: what is inside it moves nowhere.
    const blank = { url: 'about:blank', parent: page };
    expect(
      fire('will-frame-navigate', 'https://maps.example/', { url: 'x', parent: blank }, blank),
    ).toHaveBeenCalledOnce();
    // A frame Electron no longer knows is refused.
    expect(fire('will-frame-navigate', doc, null, page)).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledTimes(19);
  });

  it('turns WebRTC off without a proxy: the one way out neither the policy nor the request filter sees', () => {
    const { contents, webrtc } = fakeContents();
    hardenWebContents(contents);
    expect(webrtc).toEqual(['disable_non_proxied_udp']);
  });

  it('denies window.open for every URL', () => {
    const { contents, open } = fakeContents();
    hardenWebContents(contents);
    for (const url of ['https://example.com/', 'app://countersign/index.html', 'about:blank', '']) {
      expect(open(url)).toEqual({ action: 'deny' });
    }
  });

  it('prevents <webview> attachment', () => {
    const { contents, fire } = fakeContents();
    hardenWebContents(contents);
    expect(fire('will-attach-webview', 'https://example.com/')).toHaveBeenCalledOnce();
  });
});

function fakeSession() {
  const emitter = new EventEmitter();
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  let filter: { urls: string[] } | undefined;
  const session = Object.assign(emitter, {
    setPermissionRequestHandler: (h: never) => void (handlers.request = h),
    setPermissionCheckHandler: (h: never) => void (handlers.check = h),
    setDevicePermissionHandler: (h: never) => void (handlers.device = h),
    webRequest: {
      onBeforeRequest: (f: { urls: string[] }, h: never) => {
        filter = f;
        handlers.request2 = h;
      },
    },
  }) as unknown as HardenableSession & EventEmitter;
  return { session, handlers, filter: () => filter };
}

describe('session hardening', () => {
  it('denies every permission request, check and device', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'fullscreen',
      'unknown',
    ]) {
      const callback = vi.fn();
      (handlers.request as (c: unknown, p: string, cb: (g: boolean) => void) => void)({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect((handlers.check as () => boolean)()).toBe(false);
    expect((handlers.device as () => boolean)()).toBe(false);
  });

  it('cancels every network request the renderer session makes', () => {
    const { session, handlers, filter } = fakeSession();
    hardenSession(session);
    expect(filter()).toEqual({ urls: BLOCKED_REQUEST_PATTERNS });
    for (const scheme of ['http', 'https', 'ws', 'wss']) expect(BLOCKED_REQUEST_PATTERNS).toContain(`${scheme}://*/*`);
    const callback = vi.fn();
    (handlers.request2 as (d: { url: string }, cb: (r: { cancel: boolean }) => void) => void)(
      { url: 'https://evil.example/x' },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({ cancel: true });
  });

  it("lets an MCP App's frames make their requests (their own policy rules them), never the page's", () => {
    const { session, handlers } = fakeSession();
    hardenSession(session);
    type Details = {
      url: string;
      frame?: { url: string; parent: unknown } | null;
      resourceType?: string;
      initiatorOrigin?: string;
    };
    const cancelled = (details: Details) => {
      const callback = vi.fn();
      (handlers.request2 as (d: Details, cb: (r: { cancel: boolean }) => void) => void)(details, callback);
      return (callback.mock.calls[0]![0] as { cancel: boolean }).cancel;
    };
    const page = { url: 'app://countersign/index.html', parent: null };
    const appFrame = { url: 'app://mcp-apps/app/AAAAAAAAAAAAAAAAAAAAAA', parent: page };
    const url = 'https://tiles.example/1.png';
    expect(cancelled({ url, frame: appFrame, resourceType: 'image', initiatorOrigin: 'null' })).toBe(false);
    expect(
      cancelled({ url, frame: { url, parent: appFrame }, resourceType: 'subFrame', initiatorOrigin: 'null' }),
    ).toBe(false);
    // Not the app's own frame going to the web, nor anything the page started in a frame below it.
    expect(cancelled({ url, frame: appFrame, resourceType: 'subFrame', initiatorOrigin: 'null' })).toBe(true);
    const inside = { url, parent: appFrame };
    expect(cancelled({ url, frame: inside, resourceType: 'subFrame', initiatorOrigin: 'app://countersign' })).toBe(
      true,
    );
    expect(cancelled({ url, frame: inside, resourceType: 'image', initiatorOrigin: 'app://countersign' })).toBe(true);
    // The page's own frames (about:blank, srcdoc: the page's origin) are the page: nothing goes out.
    const blank = { url: 'about:blank', parent: page };
    expect(cancelled({ url, frame: blank, resourceType: 'xhr' })).toBe(true);
    expect(cancelled({ url, frame: { url, parent: blank }, resourceType: 'image' })).toBe(true);
    expect(cancelled({ url, frame: page, resourceType: 'image' })).toBe(true);
    expect(cancelled({ url, frame: page, resourceType: 'subFrame' })).toBe(true);
    expect(cancelled({ url, frame: appFrame, resourceType: 'mainFrame' })).toBe(true);
    expect(cancelled({ url, frame: null, resourceType: 'xhr' })).toBe(true);
    expect(cancelled({ url })).toBe(true);
  });

  it("allows only downloads of the app's own blobs (history export)", () => {
    const { session } = fakeSession();
    hardenSession(session);
    const download = (url: string) => {
      const event = { preventDefault: vi.fn() };
      session.emit('will-download', event, { getURL: () => url });
      return event.preventDefault.mock.calls.length === 0;
    };
    expect(download('blob:app://countersign/5f1c')).toBe(true);
    expect(download('https://evil.example/payload.exe')).toBe(false);
    expect(download('blob:https://evil.example/1')).toBe(false);
    expect(download('data:application/octet-stream,x')).toBe(false);
    expect(isAllowedDownload('blob:app://countersign.evil/1')).toBe(false);
  });
});
