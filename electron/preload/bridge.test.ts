import { describe, expect, it, vi } from 'vitest';
import { hostMethodNames } from '../../shared/host-api/contract';
import { EVENT_CHANNEL, HOST_EVENT_NAMES, HOST_METHOD_NAMES, INVOKE_CHANNEL } from '../../shared/host-api/names';
import { HostApiError } from '../../shared/host-api/host-client';
import { createHostBridge, type IpcRendererLike } from './bridge';

function fakeIpc(reply: unknown = { ok: true, value: 'v' }) {
  let eventListener: ((event: unknown, ...args: unknown[]) => void) | undefined;
  const ipc = {
    invoke: vi.fn(async () => reply),
    on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      expect(channel).toBe(EVENT_CHANNEL);
      eventListener = listener;
    }),
  } satisfies IpcRendererLike;
  const emit = (...args: unknown[]) => eventListener!({ sender: 'IpcRendererEvent', senderId: 0, ports: [] }, ...args);
  return { ipc, emit };
}

describe('preload bridge', () => {
  it('exposes exactly the contract methods plus on, frozen', () => {
    const api = createHostBridge(fakeIpc().ipc) as unknown as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...HOST_METHOD_NAMES, 'on'].sort());
    expect(new Set(HOST_METHOD_NAMES)).toEqual(new Set(hostMethodNames));
    for (const key of Object.keys(api)) expect(typeof api[key]).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
  });

  it('sends each method over the one invoke channel with its own name', async () => {
    const { ipc } = fakeIpc();
    const api = createHostBridge(ipc);
    await api.removeServer({ name: 'x' });
    await api.listServers({});
    expect(ipc.invoke.mock.calls).toEqual([
      [INVOKE_CHANNEL, 'removeServer', { name: 'x' }],
      [INVOKE_CHANNEL, 'listServers', {}],
    ]);
  });

  it('resolves with the value and rejects with the host message', async () => {
    await expect(createHostBridge(fakeIpc({ ok: true, value: [1] }).ipc).listServers({})).resolves.toEqual([1]);
    await expect(
      createHostBridge(
        fakeIpc({ ok: false, error: { message: 'listServers: invalid x', code: 'protocol' } }).ipc,
      ).listServers({}),
    ).rejects.toThrow('listServers: invalid x');
    await expect(createHostBridge(fakeIpc('garbage').ipc).listServers({})).rejects.toThrow(/malformed reply/);
    await expect(createHostBridge(fakeIpc({ ok: false }).ipc).listServers({})).rejects.toThrow(/refused/);
  });

  it('rejects with the host error code and details, as the web client does', async () => {
    const error = { message: 'server "a": field "command" must be a string', code: 'config' };
    const details = { server: 'a', field: 'command', problem: 'must be a string' };
    const rejection = await createHostBridge(fakeIpc({ ok: false, error: { ...error, details } }).ipc)
      .addServer({ name: 'a', entry: { command: 'x' } })
      .catch((e: unknown) => e);
    expect(rejection).toBeInstanceOf(HostApiError);
    expect(rejection).toMatchObject({ message: error.message, code: 'config', details });
  });

  it('delivers events by name with the payload only, never the IpcRendererEvent', () => {
    const { ipc, emit } = fakeIpc();
    const api = createHostBridge(ipc);
    const added = vi.fn();
    const removed = vi.fn();
    api.on('questionAdded', added);
    api.on('questionRemoved', removed);
    emit('questionAdded', { id: 'q1' });
    expect(added).toHaveBeenCalledExactlyOnceWith({ id: 'q1' });
    expect(removed).not.toHaveBeenCalled();
  });

  it('ignores events outside the contract and survives throwing listeners', () => {
    const { ipc, emit } = fakeIpc();
    const api = createHostBridge(ipc);
    const bad = vi.fn(() => {
      throw new Error('view bug');
    });
    const good = vi.fn();
    api.on('serversChanged', bad);
    api.on('serversChanged', good);
    emit('serversChanged', []);
    expect(good).toHaveBeenCalledOnce();
    emit('__proto__', {});
    emit(42, {});
    emit('constructor', {});
    expect(good).toHaveBeenCalledOnce();
  });

  it('refuses unknown events and non-function listeners', () => {
    const api = createHostBridge(fakeIpc().ipc) as unknown as { on(e: unknown, l: unknown): unknown };
    for (const event of ['questionadded', 'toString', '__proto__', '', 7, null]) {
      expect(() => api.on(event, () => undefined)).toThrow(/unknown host event/);
    }
    expect(() => api.on('questionAdded', 'alert(1)')).toThrow(/must be a function/);
    for (const event of HOST_EVENT_NAMES) expect(typeof api.on(event, () => undefined)).toBe('function');
  });

  it('unsubscribes', () => {
    const { ipc, emit } = fakeIpc();
    const api = createHostBridge(ipc);
    const listener = vi.fn();
    const off = api.on('callUpdated', listener);
    off();
    emit('callUpdated', {});
    expect(listener).not.toHaveBeenCalled();
    expect(ipc.on).toHaveBeenCalledOnce(); // one IPC listener, however many subscribers
  });
});
