// The Servers view over the in-memory host: states, add/edit/remove with
// host errors next to their fields, import with FileReader, reconnect, mute.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../../../shared/host-api/contract';
import { renderApp } from '../../testing/render-app';

const views: ServerView[] = [
  {
    name: 'kimai',
    entry: { command: 'node', args: ['server.js'] },
    status: 'connected',
    era: 'legacy',
    protocolVersion: '2025-11-25',
    muted: false,
  },
  {
    name: 'remote',
    entry: { url: 'https://mcp.example.com/mcp' },
    status: 'error',
    error: 'cannot connect to "remote": fetch failed',
    muted: false,
  },
  { name: 'slow', entry: { command: 'slow' }, status: 'connecting', muted: false },
];

const card = (name: string) => within(document.querySelector<HTMLElement>(`.server-card[data-server="${name}"]`)!);

describe('Servers view', () => {
  it('shows each server with its state: era and protocol, the error and why, connecting', async () => {
    await renderApp({ view: 'servers', serverViews: views });
    expect(card('kimai').getByText('Connected')).toBeTruthy();
    expect(card('kimai').getByText('Legacy')).toBeTruthy();
    expect(card('kimai').getByText('MCP 2025-11-25')).toBeTruthy();
    expect(card('kimai').getByText('node server.js')).toBeTruthy();
    expect(card('remote').getByText('Not reachable')).toBeTruthy();
    expect(card('remote').getByText('cannot connect to "remote": fetch failed')).toBeTruthy();
    expect(card('remote').getByText('HTTP')).toBeTruthy();
    expect(card('slow').getByText('Connecting…')).toBeTruthy();
  });

  it('says how to begin when there are no servers', async () => {
    await renderApp({ view: 'servers' });
    expect(screen.getByText('No servers yet.')).toBeTruthy();
  });

  it('adds a stdio server; local mistakes and host refusals appear at the field they name', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    const form = within(screen.getByRole('form', { name: 'Add a server' }));
    expect(document.activeElement).toBe(form.getByLabelText('Name'));
    await user.click(form.getByRole('button', { name: 'Add server' }));
    expect(form.getByText('Give the server a name.')).toBeTruthy();
    expect(form.getByText('Enter the program to start.')).toBeTruthy();
    expect(form.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(form.getByLabelText('Name').getAttribute('aria-describedby')).toContain('-error');
    expect(app.host.calls.some((c) => c.method === 'addServer')).toBe(false);

    await user.type(form.getByLabelText('Name'), 'files');
    await user.type(form.getByLabelText('Command'), 'npx');
    await user.type(
      form.getByLabelText(/^Arguments/),
      '-y{Enter}@modelcontextprotocol/server-filesystem{Enter}~/My Files',
    );
    await user.type(form.getByLabelText(/^Environment variables/), 'LOG=debug');
    app.host.failNext('addServer', {
      message: 'server "files": field "cwd" must be a non-empty string',
      code: 'config',
      details: { server: 'files', field: 'cwd', problem: 'must be a non-empty string' },
    });
    await user.click(form.getByRole('button', { name: 'Add server' }));
    const cwd = form.getByLabelText(/^Working folder/);
    expect(await form.findByText('field "cwd" must be a non-empty string')).toBeTruthy();
    expect(cwd.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(cwd);

    await user.click(form.getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(app.host.calls.filter((c) => c.method === 'addServer').at(-1)?.params).toEqual({
      name: 'files',
      entry: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '~/My Files'],
        env: { LOG: 'debug' },
      },
    });
    expect(card('files').getByText('Connecting…')).toBeTruthy();
    // Focus lands on the server just added.
    expect(document.activeElement).toBe(card('files').getByRole('heading', { name: 'files' }));
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add server' }));
  });

  it('a refusal that names no field shows above the buttons', async () => {
    const app = await renderApp({ view: 'servers' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    const form = within(screen.getByRole('form'));
    await user.type(form.getByLabelText('Name'), 'x');
    await user.type(form.getByLabelText('Command'), 'y');
    app.host.failNext('addServer', 'the configuration file could not be written');
    await user.click(form.getByRole('button', { name: 'Add server' }));
    expect((await form.findByRole('alert')).textContent).toBe('the configuration file could not be written');
  });

  it('edits an HTTP server: the entry comes back into the form and is saved with updateServer', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const user = userEvent.setup();
    await user.click(card('remote').getByRole('button', { name: 'Edit' }));
    const form = within(screen.getByRole('form', { name: 'Edit remote' }));
    expect((form.getByLabelText('Name') as HTMLInputElement).readOnly).toBe(true);
    const url = form.getByLabelText('URL') as HTMLInputElement;
    expect(url.value).toBe('https://mcp.example.com/mcp');
    expect(document.activeElement).toBe(url);
    await user.clear(url);
    await user.type(url, 'ftp://x');
    app.host.failNext('updateServer', {
      message: 'server "remote": field "url" must be http(s), not ftp:',
      code: 'config',
      details: { server: 'remote', field: 'url', problem: 'must be http(s), not ftp:' },
    });
    await user.click(form.getByRole('button', { name: 'Save changes' }));
    expect(await form.findByText('field "url" must be http(s), not ftp:')).toBeTruthy();
    await user.clear(url);
    await user.type(url, 'https://other.example/mcp');
    await user.type(form.getByLabelText(/^HTTP headers/), 'Authorization: Bearer t');
    await user.click(form.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(app.host.calls.filter((c) => c.method === 'updateServer').at(-1)?.params).toEqual({
      name: 'remote',
      entry: { url: 'https://other.example/mcp', headers: { Authorization: 'Bearer t' } },
    });
  });

  it('removes only after a confirmation; Keep returns focus to Remove', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const user = userEvent.setup();
    await user.click(card('slow').getByRole('button', { name: 'Remove' }));
    expect(card('slow').getByText('Remove slow from your servers?')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Keep');
    await user.click(card('slow').getByRole('button', { name: 'Keep' }));
    expect(document.activeElement?.textContent).toBe('Remove');
    await user.click(card('slow').getByRole('button', { name: 'Remove' }));
    await user.click(within(card('slow').getByRole('group')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(document.querySelector('[data-server="slow"]')).toBeNull());
    expect(app.host.calls.filter((c) => c.method === 'removeServer').map((c) => c.params)).toEqual([{ name: 'slow' }]);
  });

  it('imports a config file after its review and reports what was added and skipped', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const user = userEvent.setup();
    const file = new File(
      [
        JSON.stringify({
          servers: { fresh: { command: 'fresh' }, kimai: { command: 'again' }, odd: { nothing: true } },
        }),
      ],
      'mcp.json',
      { type: 'application/json' },
    );
    await user.upload(screen.getByTestId('import-file'), file);
    const review = await screen.findByRole('dialog', { name: 'Add servers from mcp.json?' });
    await user.click(within(review).getByRole('button', { name: 'Add 1 server' }));
    const report = await screen.findByRole('status', { name: 'Import from mcp.json' });
    expect(within(report).getByText('Added 1 server: fresh.')).toBeTruthy();
    expect(report.querySelector('.import-skipped')?.textContent).toBe(
      'kimai: a server with this name already existsodd: server "odd": field "command" is missing (or give "url" for an HTTP server)',
    );
    expect(app.host.calls.filter((c) => c.method === 'importServers').map((c) => c.params)).toEqual([
      { json: await file.text(), fileName: 'mcp.json', dryRun: true },
      { json: await file.text(), fileName: 'mcp.json', names: ['fresh'], inputs: {} },
    ]);
    expect(card('fresh')).toBeTruthy();
    await user.click(within(report).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Added 1 server: fresh.')).toBeNull();

    await user.upload(screen.getByTestId('import-file'), new File(['{}'], 'empty.json'));
    expect((await screen.findByRole('status', { name: 'Import from empty.json' })).textContent).toContain(
      'has no "mcpServers"',
    );
  });

  it('says in words which values a server needs before it can start, not as a connection failure', async () => {
    const needs = ['${env:BRAVE_API_KEY} in env.BRAVE_API_KEY (the environment variable BRAVE_API_KEY is not set)'];
    await renderApp({
      view: 'servers',
      serverViews: [
        {
          name: 'brave',
          entry: { command: 'npx', args: ['brave'], env: { BRAVE_API_KEY: '${env:BRAVE_API_KEY}' } },
          status: 'error',
          error: `server "brave" needs a value before it can start: ${needs[0]}`,
          needs,
          muted: false,
        },
      ],
    });
    expect(card('brave').getByText('Needs a value')).toBeTruthy();
    expect(card('brave').queryByText('Not reachable')).toBeNull();
    expect(card('brave').getByText('It does not start until these have a value:')).toBeTruthy();
    expect(card('brave').getByText(needs[0]!).tagName).toBe('LI');
    expect(card('brave').getByText(/^Set the environment variable, or edit the server/)).toBeTruthy();
    expect(card('brave').queryByText('Why:')).toBeNull();
  });

  it('reconnects, and mutes with an explanation that follows the switch', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const user = userEvent.setup();
    await user.click(card('remote').getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(card('remote').getByText('Connected')).toBeTruthy());
    const mute = card('kimai').getByRole('checkbox', { name: 'Stop asking this session' });
    expect(mute.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(mute.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^“Stop asking this session” on a server: its questions are then cancelled without being shown/,
    );
    // Said once for the whole list, not on every card.
    expect(screen.getAllByText(/its questions are then cancelled without being shown/i)).toHaveLength(1);
    await user.click(mute);
    await waitFor(() => expect((mute as HTMLInputElement).checked).toBe(true));
    expect(document.getElementById(mute.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /^On: questions from this server are cancelled/,
    );
    expect(card('kimai').getByText('Not asking')).toBeTruthy();
    expect(app.host.calls.filter((c) => c.method === 'muteServer').map((c) => c.params)).toEqual([
      { server: 'kimai', muted: true },
    ]);
    app.host.failNext('muteServer', 'no server named "kimai" is configured');
    await user.click(mute);
    expect((await card('kimai').findByRole('alert')).textContent).toBe('no server named "kimai" is configured');
  });

  it('follows serversChanged from the host', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    act(() =>
      app.host.setServers([{ ...views[2]!, status: 'connected', era: 'modern', protocolVersion: '2026-07-28' }]),
    );
    expect(card('slow').getByText('Modern')).toBeTruthy();
    expect(document.querySelector('[data-server="kimai"]')).toBeNull();
  });

  it('badges are distinct among the configured servers ("pay-east" and "pay-eu" are not both "PE")', async () => {
    await renderApp({ view: 'servers', servers: ['pay-east', 'pay-eu'] });
    await waitFor(() => expect(document.querySelectorAll('.server-badge')).toHaveLength(2));
    const badges = [...document.querySelectorAll('.server-badge')].map((b) => b.textContent);
    expect(new Set(badges).size).toBe(2);
  });

  it('shows why a hand edit of servers.json was not loaded, keeps the list, and clears once it loads', async () => {
    const app = await renderApp({ view: 'servers', serverViews: views });
    const error = "/home/u/.config/Countersign/servers.json:4:5: not valid JSON: Expected ',' or '}'";
    act(() => app.host.emit('serversFileProblem', { error }));
    const banner = await screen.findByText(/Your edit of servers\.json was not loaded/);
    expect(banner.textContent).toContain('servers.json:4:5: not valid JSON');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(card('kimai').getByText('Connected')).toBeTruthy();
    act(() => app.host.emit('serversFileProblem', { error: null }));
    await waitFor(() => expect(screen.queryByText(/Your edit of servers\.json/)).toBeNull());
  });
});
