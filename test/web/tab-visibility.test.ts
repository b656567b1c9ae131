// The web shell knows whether anyone can see it (issue 9, item 16): a real
// shell, its opener, and real WebSocket tabs coming and going.
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebShell, type WebShell } from '../../electron/web/web-shell';
import { makeRendererDir, parseShellUrl, startService } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function shell(options: Partial<Parameters<typeof startWebShell>[0]>): Promise<WebShell> {
  const app = await startService();
  const renderer = makeRendererDir();
  const s = await startWebShell({
    service: app.service,
    rendererDir: renderer.rendererDir,
    log: () => undefined,
    ...options,
  });
  cleanups.push(
    () => app.close(),
    () => renderer.cleanup(),
    () => s.close(),
  );
  return s;
}

async function tab(s: WebShell): Promise<WebSocket> {
  const { port, token } = parseShellUrl(s.url);
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api`, ['countersign.v1', `countersign.token.${token}`], {
    origin: `http://127.0.0.1:${port}`,
  });
  await new Promise((res, rej) => ws.once('open', res).once('error', rej));
  cleanups.push(() => ws.close());
  return ws;
}

describe('whether the web shell can be seen', () => {
  it('an opener that failed: not visible at once, with the reason; visible as soon as a tab comes in', async () => {
    const s = await shell({
      openBrowser: true,
      opener: () => Promise.reject(new Error('xdg-open could not open it (exit code 3)')),
    });
    expect(await s.whenVisible()).toEqual({
      visible: false,
      reason: 'the browser could not be opened (xdg-open could not open it (exit code 3)) and no tab is connected',
    });
    const ws = await tab(s);
    expect(await s.whenVisible()).toEqual({ visible: true });
    ws.close();
    await new Promise((r) => ws.once('close', r));
  });

  it('a browser on its way is waited for, and the wait ends when its tab connects', async () => {
    const s = await shell({ openBrowser: true, opener: async () => undefined, visibility: { browserStartMs: 60_000 } });
    let settled = false;
    const seen = s.whenVisible().finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(settled).toBe(false);
    await tab(s);
    expect(await seen).toEqual({ visible: true });
  });

  it('a browser that never connects, or every tab closed: not visible once the short wait is over', async () => {
    const s = await shell({
      openBrowser: true,
      opener: async () => undefined,
      visibility: { browserStartMs: 200, reconnectMs: 200 },
    });
    expect(await s.whenVisible()).toEqual({
      visible: false,
      reason: 'the browser was started but no tab connected within 200 ms',
    });
    const ws = await tab(s);
    ws.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(await s.whenVisible()).toEqual({ visible: false, reason: 'no browser tab is connected' });
  });
});
