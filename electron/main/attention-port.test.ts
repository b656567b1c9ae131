// The Electron side of attention, with Electron mocked.
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, FakeNotification, FakeTray, resetFakeClasses, sharedFake } from './testing/electron-fake';

vi.mock('electron', async () => (await import('./testing/electron-fake')).sharedFake.module);

const electron = sharedFake.module;
const { createAttentionPort, overlayIconFile, trayIconFile } = await import('./attention-port');

function setup(platform: NodeJS.Platform) {
  const win = new FakeBrowserWindow({});
  const bringToFront = vi.fn();
  const quit = vi.fn();
  const { port, tray } = createAttentionPort({
    platform,
    iconsDir: '/icons',
    getWindow: () => win as never,
    bringToFront,
    quit,
    language: () => 'en',
  });
  return { port, tray: tray as unknown as FakeTray | null, win, bringToFront, quit };
}

describe('attention port', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    resetFakeClasses();
  });

  it('picks tray and overlay images', () => {
    expect(trayIconFile('darwin', true)).toBe('trayTemplate.png');
    expect(trayIconFile('linux', false)).toBe('tray.png');
    expect(trayIconFile('win32', true)).toBe('tray-attention.png');
    expect(overlayIconFile('')).toBeNull();
    expect(overlayIconFile('3')).toBe('badge-3.png');
    expect(overlayIconFile('9+')).toBe('badge-9plus.png');
  });

  it('Linux: launcher badge count and a tray icon that changes while questions wait', () => {
    const { port, tray } = setup('linux');
    expect(tray!.setContextMenu).toHaveBeenCalled();
    port.setBadge(2, '2');
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(2);
    expect(tray!.setImage).toHaveBeenLastCalledWith(
      expect.objectContaining({ path: join('/icons', 'tray-attention.png') }),
    );
    port.setBadge(0, '');
    expect(tray!.setImage).toHaveBeenLastCalledWith(expect.objectContaining({ path: join('/icons', 'tray.png') }));
  });

  it('Windows: a numbered taskbar overlay', () => {
    const { port, win } = setup('win32');
    port.setBadge(12, '9+');
    expect(win.setOverlayIcon).toHaveBeenLastCalledWith(
      expect.objectContaining({ path: join('/icons', 'badge-9plus.png') }),
      '9+ waiting',
    );
    port.setBadge(0, '');
    expect(win.setOverlayIcon).toHaveBeenLastCalledWith(null, '');
    expect(electron.app.setBadgeCount).not.toHaveBeenCalled();
  });

  it('macOS: dock badge and the number beside a template tray icon', () => {
    const { port, tray } = setup('darwin');
    const image = electron.nativeImage.createFromPath.mock.results[0]!.value as {
      setTemplateImage: ReturnType<typeof vi.fn>;
    };
    expect(image.setTemplateImage).toHaveBeenCalledWith(true);
    port.setBadge(3, '3');
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(3);
    expect(tray!.setTitle).toHaveBeenLastCalledWith(' 3');
  });

  it('shows a notification whose click brings the window to the front', () => {
    const { port } = setup('linux');
    const onClick = vi.fn();
    port.notify({ title: 'T', body: 'B' }, onClick);
    const note = FakeNotification.instances[0]!;
    expect(note.options).toEqual({ title: 'T', body: 'B', icon: join('/icons', 'notification.png') });
    expect(note.show).toHaveBeenCalled();
    note.emit('click');
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('replaces the previous notification, so a burst is one notification', () => {
    const { port } = setup('linux');
    port.notify({ title: 'T1', body: 'B1' }, vi.fn());
    port.notify({ title: 'T2', body: 'B2' }, vi.fn());
    const [first, second] = FakeNotification.instances;
    expect(first!.close).toHaveBeenCalledOnce();
    expect(second!.close).not.toHaveBeenCalled();
    second!.emit('close');
    port.notify({ title: 'T3', body: 'B3' }, vi.fn());
    expect(second!.close).not.toHaveBeenCalled(); // already gone: nothing to replace
  });

  it('stays quiet where notifications are unsupported', () => {
    FakeNotification.supported = false;
    setup('linux').port.notify({ title: 'T', body: 'B' }, vi.fn());
    expect(FakeNotification.instances).toHaveLength(0);
  });

  it('works without a tray (desktops that have none)', () => {
    FakeTray.failNext = true;
    const { port, tray } = setup('linux');
    expect(tray).toBeNull();
    port.setBadge(1, '1');
    port.setTrayTooltip('x');
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(1);
  });

  it('reports window state and flashes the frame', () => {
    const { port, win } = setup('linux');
    expect(port.windowState()).toEqual({ exists: true, visible: false, minimized: false, focused: false });
    win.destroyed = true;
    expect(port.windowState().exists).toBe(false);
    port.flash(true);
    expect(win.flashFrame).not.toHaveBeenCalled();
    win.destroyed = false;
    port.flash(true);
    expect(win.flashFrame).toHaveBeenCalledWith(true);
  });

  it('tray click and menu show the window or quit', () => {
    const { tray, bringToFront, quit } = setup('linux');
    tray!.emit('click');
    expect(bringToFront).toHaveBeenCalled();
    const template = electron.Menu.buildFromTemplate.mock.calls.at(-1)![0] as Array<{ click?: () => void }>;
    template[2]!.click!();
    expect(quit).toHaveBeenCalled();
  });
});
