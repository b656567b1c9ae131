import { describe, expect, it } from 'vitest';
import { checkSender, senderFactsOf } from './sender-check';

const MAIN = 7;
const appFrame = { url: 'app://countersign/index.html', isMainFrame: true };

describe('IPC sender check', () => {
  it("accepts the main window's main frame showing the app", () => {
    expect(checkSender({ senderId: MAIN, frame: appFrame }, MAIN)).toEqual({ ok: true });
    expect(checkSender({ senderId: MAIN, frame: { url: 'app://countersign/', isMainFrame: true } }, MAIN).ok).toBe(
      true,
    );
  });

  it.each([
    ['another web contents', { senderId: 8, frame: appFrame }, MAIN],
    ['no main window yet', { senderId: MAIN, frame: appFrame }, undefined],
    ['a subframe', { senderId: MAIN, frame: { ...appFrame, isMainFrame: false } }, MAIN],
    ['a destroyed or navigated frame', { senderId: MAIN, frame: null }, MAIN],
    ['a remote page', { senderId: MAIN, frame: { url: 'https://evil.example/', isMainFrame: true } }, MAIN],
    ['a file:// page', { senderId: MAIN, frame: { url: 'file:///tmp/index.html', isMainFrame: true } }, MAIN],
    ['another app:// host', { senderId: MAIN, frame: { url: 'app://other/index.html', isMainFrame: true } }, MAIN],
    [
      'a look-alike scheme',
      { senderId: MAIN, frame: { url: 'apps://countersign/index.html', isMainFrame: true } },
      MAIN,
    ],
    ['about:blank', { senderId: MAIN, frame: { url: 'about:blank', isMainFrame: true } }, MAIN],
  ] as const)('refuses %s', (_label, facts, mainId) => {
    const verdict = checkSender(facts, mainId);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(/\w/);
  });

  it('reads the facts from an IpcMainInvokeEvent', () => {
    const top = { url: 'app://countersign/index.html', parent: null };
    expect(senderFactsOf({ sender: { id: 3 }, senderFrame: top })).toEqual({
      senderId: 3,
      frame: { url: top.url, isMainFrame: true },
    });
    expect(senderFactsOf({ sender: { id: 3 }, senderFrame: { url: 'x', parent: top } }).frame?.isMainFrame).toBe(false);
    expect(senderFactsOf({ sender: { id: 3 }, senderFrame: null }).frame).toBeNull();
  });
});
