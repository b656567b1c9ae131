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
  const contents = Object.assign(emitter, {
    setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
  }) as unknown as HardenableContents & EventEmitter;
  const fire = (event: string, url: string) => {
    const details = { url, preventDefault: vi.fn() };
    emitter.emit(event, details, url);
    return details.preventDefault;
  };
  return { contents, fire, open: (url: string) => openHandler!({ url }) };
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
