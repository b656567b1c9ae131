import { describe, expect, it } from 'vitest';
import { createInMemoryHost } from '../api/in-memory-host';
import { createStores } from '../app/stores';
import { ServerDirectory } from './server-directory';
import { SettingsStore } from './settings-store';
import { Store } from './store';

describe('SettingsStore', () => {
  it('loads settings, follows settingsChanged and updates through the host', async () => {
    const host = createInMemoryHost({ settings: { language: 'de' } });
    const store = new SettingsStore(host.api);
    await store.start();
    expect(store.getState().settings?.language).toBe('de');
    await store.update({ theme: 'dark' });
    expect(store.getState().settings?.theme).toBe('dark');
    host.emit('settingsChanged', { ...store.getState().settings!, language: 'en' });
    expect(store.getState().settings?.language).toBe('en');
  });

  it('stays at system defaults when the host has no settings', async () => {
    const host = createInMemoryHost();
    const store = new SettingsStore({ ...host.api, getSettings: () => Promise.reject(new Error('x')) });
    await store.start();
    expect(store.getState().settings).toBeNull();
  });
});

describe('ServerDirectory', () => {
  it('knows configured servers and merges names from questions', async () => {
    const host = createInMemoryHost({ servers: ['b', 'a'] });
    const dir = new ServerDirectory(host.api);
    await dir.start();
    expect(dir.getState().names).toEqual(['a', 'b']);
    const before = dir.getState();
    dir.merge(['a']);
    expect(dir.getState()).toBe(before); // nothing new, no change event
    host.emit('serversChanged', [{ name: 'c', entry: { command: 'c' }, status: 'idle', muted: false }]);
    expect(dir.getState().names).toEqual(['a', 'b', 'c']);
  });
});

describe('the renderer stores', () => {
  it('every store the UI subscribes to is the one Store, not a copy of its state and listeners', () => {
    const stores = createStores(createInMemoryHost().api);
    const subscribed = Object.entries(stores).filter(
      ([, value]) => typeof value === 'object' && value !== null && 'subscribe' in value,
    );
    // The seven stores the views read (queue, directory, settings, servers, calls, tasks, history).
    expect(subscribed.map(([name]) => name).sort()).toEqual([
      'calls',
      'directory',
      'history',
      'queue',
      'servers',
      'settings',
      'tasks',
    ]);
    for (const [name, store] of subscribed) expect(store instanceof Store, name).toBe(true);
  });
});
