// One source for the server list (issue 14 §4): the Host reads the one
// ServerList the servers file feeds, so a change made anywhere (the app's API,
// the file edited by hand, the gateway's reload) reaches the connections
// without each keeping and updating a copy.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureCommand } from '../../../test/fixtures/spawn-fixture';
import { Host } from '../host';
import { messageOf } from '../host-error';
import type { Prompter } from '../prompter/prompter';
import { ServerList } from './server-list';

const prompter: Prompter = { ask: () => Promise.resolve({ answer: { action: 'cancel' }, decidedBy: 'human' }) };
let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('ServerList', () => {
  it('reports what a replacement added, changed and removed, and nothing for an equal list', () => {
    const list = new ServerList({ a: { command: 'a' }, b: { command: 'b' } });
    const seen: unknown[] = [];
    list.onChange((c) => seen.push(c));
    expect(list.replace({ b: { command: 'b2' }, c: { url: 'http://127.0.0.1:1/mcp' } })).toEqual({
      added: ['c'],
      changed: ['b'],
      removed: ['a'],
    });
    list.replace({ b: { command: 'b2' }, c: { url: 'http://127.0.0.1:1/mcp' } });
    expect(seen).toHaveLength(1);
    expect(list.names()).toEqual(['b', 'c']);
    expect(list.get('toString')).toBeUndefined();
  });

  it('the Host follows the list it was given: a changed entry closes the old connection, a removed one is gone', async () => {
    const modern = fixtureCommand('modern');
    const list = new ServerList({ fx: { command: modern.command, args: modern.args } });
    host = new Host({ servers: list, prompter });
    const first = await host.connect('fx');
    const closed = new Promise<void>((resolve) => first.onClose(() => resolve()));

    // Changed in the list itself (as the servers file does on a hand edit), not through the Host.
    list.set('fx', { command: modern.command, args: [...modern.args, '--changed'] });
    await closed;
    const second = await host.connect('fx');
    expect(second).not.toBe(first);
    expect(second.entry).toEqual({ command: modern.command, args: [...modern.args, '--changed'] });

    list.remove('fx');
    await host.settled('fx');
    expect(host.serverNames()).toEqual([]);
    expect(await host.connect('fx').then(() => 'connected', messageOf)).toBe('no server named "fx" is configured');
  });
});
