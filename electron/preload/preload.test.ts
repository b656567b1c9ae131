// The preload entry with Electron mocked: it exposes the bridge as
// window.countersign through contextBridge, and nothing else.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HOST_METHOD_NAMES } from '../../shared/host-api/names';

const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), send: vi.fn(), sendSync: vi.fn() },
}));
vi.mock('electron', () => electron);

describe('preload entry', () => {
  beforeEach(() => {
    vi.resetModules();
    electron.contextBridge.exposeInMainWorld.mockClear();
  });

  it('exposes one object, window.countersign, with the contract methods and on', async () => {
    await import('./preload');
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledOnce();
    const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0]!;
    expect(key).toBe('countersign');
    expect(Object.keys(api as object).sort()).toEqual([...HOST_METHOD_NAMES, 'on'].sort());
    expect(Object.values(api as object)).not.toContain(electron.ipcRenderer);
  });

  it('never uses send/sendSync: every request is an invoke', async () => {
    await import('./preload');
    const api = electron.contextBridge.exposeInMainWorld.mock.calls[0]![1] as Record<
      string,
      (p: unknown) => Promise<unknown>
    >;
    electron.ipcRenderer.invoke.mockResolvedValue({ ok: true, value: null });
    await api.getSettings!({});
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('countersign:invoke', 'getSettings', {});
    expect(electron.ipcRenderer.send).not.toHaveBeenCalled();
    expect(electron.ipcRenderer.sendSync).not.toHaveBeenCalled();
  });
});
