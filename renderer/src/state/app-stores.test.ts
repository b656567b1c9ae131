// The app frame's stores over the in-memory host: servers, calls (including
// the update that beats the callTool reply) and the paging history.
import { describe, expect, it, vi } from 'vitest';
import { createInMemoryHost } from '../api/in-memory-host';
import { historyItem } from '../testing/history';
import { CallStore } from './call-store';
import { HistoryStore, PAGE_SIZE } from './history-store';
import { ServerStore } from './server-store';

describe('ServerStore', () => {
  it('loads, follows serversChanged, and passes actions to the host', async () => {
    const host = createInMemoryHost({ servers: ['a'] });
    const store = new ServerStore(host.api);
    await store.start();
    expect(store.getState().servers.map((s) => s.name)).toEqual(['a']);
    await store.add('b', { command: 'b' });
    expect(store.find('b')?.status).toBe('connecting');
    await store.mute('b', true);
    expect(store.find('b')?.muted).toBe(true);
    await store.reconnect('b');
    expect(store.find('b')).toMatchObject({ status: 'connected', muted: false });
    await store.remove('a');
    expect(store.getState().servers.map((s) => s.name)).toEqual(['b']);
    await expect(store.add('b', { command: 'b' })).rejects.toThrow('a server named "b" already exists');
    expect(
      await store.importFile(
        JSON.stringify({ mcpServers: { c: { command: 'c' }, b: { command: 'x' } } }),
        'x.json',
        ['c'],
        {},
      ),
    ).toMatchObject({
      imported: ['c'],
      skipped: [{ name: 'b', reason: 'a server with this name already exists' }],
    });
    expect(store.getState().servers.map((s) => s.name)).toEqual(['b', 'c']);
  });

  it('reports a list that cannot be loaded', async () => {
    const host = createInMemoryHost();
    const store = new ServerStore({ ...host.api, listServers: () => Promise.reject(new Error('gone')) });
    await store.start();
    expect(store.getState()).toMatchObject({ loaded: true, loadError: 'gone' });
  });
});

describe('CallStore', () => {
  it('claims updates that arrived before the callTool reply, then follows the call to its end', async () => {
    const host = createInMemoryHost({ servers: ['s'] });
    const store = new CallStore(host.api);
    store.start();
    const id = await store.call('s', 'deploy', { env: 'prod' });
    expect(store.getState().calls).toEqual([
      expect.objectContaining({ id, callId: 'call-1', state: 'running', args: { env: 'prod' } }),
    ]);
    host.finishCall('call-1', { result: { content: [{ type: 'text', text: 'ok' }] } });
    expect(store.getState().calls[0]).toMatchObject({
      state: 'complete',
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
  });

  it('keeps a completion that beat the reply', async () => {
    const host = createInMemoryHost({ servers: ['s'] });
    const api = {
      ...host.api,
      // The host finishes the call before its reply arrives.
      callTool: async (p: Parameters<typeof host.api.callTool>[0]) => {
        const r = await host.api.callTool(p);
        host.finishCall(r.callId, { error: 'boom' });
        return r;
      },
    };
    const store = new CallStore(api);
    store.start();
    await store.call('s', 't', {});
    expect(store.getState().calls[0]).toMatchObject({ state: 'error', error: 'boom' });
  });

  it('cancels a running call, shows a refused start, and clears finished calls', async () => {
    const host = createInMemoryHost({ servers: ['s'] });
    const store = new CallStore(host.api);
    store.start();
    const id = await store.call('s', 't', {});
    await store.cancel(id);
    expect(store.getState().calls[0]).toMatchObject({ state: 'cancelled', cancelling: false });
    expect(host.calls.filter((c) => c.method === 'cancelCall').map((c) => c.params)).toEqual([{ callId: 'call-1' }]);
    await store.call('nope', 't', {});
    expect(store.getState().calls[0]).toMatchObject({
      server: 'nope',
      state: 'error',
      error: 'no server named "nope" is configured',
    });
    const refused = store.getState().calls[0]!.id;
    const running = await store.call('s', 't', {});
    store.clearFinished('s', 't');
    // The cancelled call goes; the running one and the other server's stay.
    expect(store.getState().calls.map((c) => c.id)).toEqual([running, refused]);
  });
});

describe('HistoryStore', () => {
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      historyItem(i + 1, { server: i % 2 === 0 ? 'github' : 'files', action: i % 3 === 0 ? 'decline' : 'accept' }),
    );

  it('loads only the pages on screen, newest first', async () => {
    const host = createInMemoryHost({ history: items(1000) });
    const store = new HistoryStore(host.api, 0);
    store.activate();
    await vi.waitFor(() => expect(store.getState().total).toBe(1000));
    expect(store.itemAt(0)?.seq).toBe(1000);
    store.ensureRange(480, 520);
    await vi.waitFor(() => expect(store.itemAt(520)).toBeDefined());
    expect(store.itemAt(480)?.seq).toBe(520);
    const queries = host.calls.filter((c) => c.method === 'queryHistory').map((c) => c.params as { offset: number });
    expect(queries.map((q) => q.offset).sort((a, b) => a - b)).toEqual([0, 4 * PAGE_SIZE, 5 * PAGE_SIZE]);
    expect(store.itemAt(700)).toBeUndefined();
    expect(store.getState().servers).toEqual(['files', 'github']);
  });

  it('starts over on a new filter and drops answers to the old one', async () => {
    const host = createInMemoryHost({ history: items(300) });
    const store = new HistoryStore(host.api, 0);
    store.activate();
    store.setQuery({ server: 'github', action: 'decline' });
    await vi.waitFor(() => expect(store.getState().total).toBe(50));
    expect(store.itemAt(0)).toMatchObject({
      kind: 'question',
      question: { server: { name: 'github' } },
      answer: { action: 'decline' },
    });
  });

  it('refreshes on historyAppended, swapping the visible pages in at once', async () => {
    const host = createInMemoryHost({ history: items(150) });
    const store = new HistoryStore(host.api, 5);
    store.activate();
    await vi.waitFor(() => expect(store.getState().total).toBe(150));
    store.ensureRange(0, 149);
    await vi.waitFor(() => expect(store.itemAt(149)).toBeDefined());
    host.appendHistory(historyItem(151));
    host.appendHistory(historyItem(152));
    // Until the refresh lands, the old pages stay as they were.
    expect(store.itemAt(0)?.seq).toBe(150);
    await vi.waitFor(() => expect(store.getState().total).toBe(152));
    expect([store.itemAt(0)?.seq, store.itemAt(2)?.seq, store.itemAt(151)?.seq]).toEqual([152, 150, 1]);
    // Two appends, one refresh: page 0 and 1 fetched once more each.
    expect(host.calls.filter((c) => c.method === 'queryHistory')).toHaveLength(4);
  });

  it('reports a failed query and exports with the current filter', async () => {
    const host = createInMemoryHost({ history: items(10) });
    const store = new HistoryStore(host.api, 0);
    host.failNext('queryHistory', 'journal locked');
    store.activate();
    await vi.waitFor(() => expect(store.getState().error).toBe('journal locked'));
    store.setQuery({ server: 'files' });
    await vi.waitFor(() => expect(store.getState().total).toBe(5));
    const out = await store.export('jsonl');
    if (!('data' in out)) throw new Error('the in-memory host answers with text');
    expect(out.data.trim().split('\n')).toHaveLength(5);
    expect(host.calls.at(-1)).toMatchObject({
      method: 'exportHistory',
      params: { filter: { server: 'files' }, format: 'jsonl' },
    });
  });
});
