// The Tools view over the in-memory host: the catalog in tabs, a tool's
// arguments as a form (or JSON), a call with its result, tool errors,
// failures and cancel; questions a call raises use the usual dialogs.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CatalogView } from '../../../../shared/host-api/contract';
import { confirmQuestion, origin } from '../../testing/questions';
import { renderApp } from '../../testing/render-app';

const catalog: CatalogView = {
  tools: [
    {
      name: 'deploy',
      title: 'Deploy a service',
      description: 'Deploys one service.',
      inputSchema: {
        type: 'object',
        properties: {
          service: { type: 'string', title: 'Service' },
          replicas: { type: 'integer', title: 'Replicas', minimum: 1 },
          region: { type: 'string', enum: ['eu', 'us'] },
        },
        required: ['service'],
      },
    },
    {
      name: 'nested',
      description: 'Takes a nested object.',
      inputSchema: {
        type: 'object',
        properties: { address: { type: 'object', properties: { city: { type: 'string' } } } },
      },
    },
    { name: 'ping', inputSchema: { type: 'object', properties: {} } },
  ],
  prompts: [{ name: 'greeting', description: 'Says hello.', arguments: [{ name: 'name', required: true }] }],
  resources: [{ uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' }],
};

async function open(options: Parameters<typeof renderApp>[0] = {}) {
  const app = await renderApp({
    view: 'tools',
    servers: ['github', 'files'],
    catalogs: { github: catalog },
    ...options,
  });
  await screen.findByRole('tab', { name: /Tools/ });
  return { app, user: userEvent.setup() };
}

describe('Tools view', () => {
  it('shows the tools of a server that could not list its prompts and resources, and says why for each', async () => {
    const { user } = await open({
      catalogs: {
        github: {
          ...catalog,
          prompts: [],
          resources: [],
          unlisted: { prompts: 'Method not found', resources: 'boom' },
        },
      },
    });
    expect(screen.getByRole('button', { name: /^deploy Deploy a service/ })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Prompts/ }));
    expect(screen.getByText('The server offers prompts but could not list them: Method not found')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Resources/ }));
    expect(screen.getByText('The server offers resources but could not list them: boom')).toBeTruthy();
    expect(screen.queryByText('This server offers no resources.')).toBeNull();
  });

  it('lists tools, prompts and resources of the picked server in tabs (arrow keys move between tabs)', async () => {
    const { app, user } = await open();
    expect(screen.getByRole('tab', { name: 'Tools (3)' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: /^deploy Deploy a service/ })).toBeTruthy();
    screen.getByRole('tab', { name: 'Tools (3)' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('greeting')).toBeTruthy();
    expect(screen.getByText('Says hello.')).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('file:///notes.txt')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Server'), 'files');
    expect(await screen.findByText('This server offers no resources.')).toBeTruthy(); // the tab stays
    expect(app.host.calls.filter((c) => c.method === 'listCatalog').map((c) => c.params)).toEqual([
      { server: 'github' },
      { server: 'files' },
    ]);
  });

  it('draws the input schema as a form, validates it, and calls with the typed arguments', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: /^deploy/ }));
    expect(screen.getByRole('heading', { name: 'deploy' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Service/)); // focus moves to the form
    await user.click(screen.getByRole('button', { name: 'Call deploy' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(app.host.calls.some((c) => c.method === 'callTool')).toBe(false);
    await user.type(screen.getByLabelText(/^Service/), 'billing');
    await user.type(screen.getByLabelText(/^Replicas/), '3');
    await user.selectOptions(screen.getByLabelText(/^region/), 'eu');
    await user.type(screen.getByLabelText(/^Service/), '{Enter}'); // Enter in a one-line field calls
    await waitFor(() =>
      expect(app.host.calls.filter((c) => c.method === 'callTool').map((c) => c.params)).toEqual([
        { server: 'github', tool: 'deploy', args: { service: 'billing', replicas: 3, region: 'eu' } },
      ]),
    );
    const callCard = await screen.findByText('Running');
    expect(screen.getByText('Running. If the server has a question, it opens as a dialog.')).toBeTruthy();
    act(() =>
      app.host.finishCall('call-1', {
        result: { content: [{ type: 'text', text: 'deployed billing ×3' }], structuredContent: { ok: true } },
      }),
    );
    expect(await screen.findByText('deployed billing ×3')).toBeTruthy();
    expect(screen.getByText('Done')).toBeTruthy();
    expect(screen.getByText('structuredContent')).toBeTruthy();
    expect(callCard.isConnected).toBe(true);
  });

  it('a question from the call appears as the usual dialog over the view', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: /^ping/ }));
    expect(screen.getByText('This tool takes no arguments.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await screen.findByText('Running');
    act(() =>
      app.host.push(confirmQuestion({ origin: origin({ server: 'github', name: 'ping' }), message: 'Really ping?' })),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Really ping?')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.app')!.hasAttribute('inert')).toBe(true));
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    act(() => app.host.finishCall('call-1', { result: { content: [{ type: 'text', text: 'nope' }], isError: true } }));
    expect(await screen.findByText('Tool error')).toBeTruthy();
    expect(screen.getByText('The tool reported an error:')).toBeTruthy();
  });

  it('cancels a running call; a failed call says why', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: /^ping/ }));
    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel call' }));
    expect(await screen.findByText('The call was cancelled.')).toBeTruthy();
    expect(app.host.calls.filter((c) => c.method === 'cancelCall').map((c) => c.params)).toEqual([
      { callId: 'call-1' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await screen.findByRole('button', { name: 'Cancel call' });
    act(() => app.host.finishCall('call-2', { error: 'the server closed the connection' }));
    expect(await screen.findByText('The call failed: the server closed the connection')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear finished' }));
    expect(screen.queryByText('The call was cancelled.')).toBeNull();
  });

  it('a call the person declined or cancelled is not shown as a green "Done"; a host decision says it was the host', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: /^ping/ }));
    const card = () => document.querySelector('.call-card')!;
    const reply = (text: string) => ({ content: [{ type: 'text', text }] });
    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await screen.findByText('Running');
    act(() =>
      app.host.finishCall('call-1', {
        result: reply('declined by the user, nothing was deleted'),
        lastAnswer: { action: 'decline', decidedBy: 'human' },
      }),
    );
    await screen.findByText('declined by the user, nothing was deleted');
    expect(card().getAttribute('data-call-state')).toBe('declined');
    expect(card().querySelector('.pill')!.textContent).toBe('Declined');
    expect(card().querySelector('.pill')!.className).toBe('pill pill-neutral');
    expect(screen.getByTestId('call-outcome-note').textContent).toBe(
      'You declined its question; the server then ended with the reply below.',
    );

    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await screen.findByText('Running');
    act(() =>
      app.host.finishCall('call-2', {
        result: reply('cancelled'),
        lastAnswer: { action: 'cancel', decidedBy: 'timeout' },
      }),
    );
    await waitFor(() => expect(card().getAttribute('data-call-state')).toBe('unanswered'));
    expect(card().querySelector('.pill')!.textContent).toBe('Not answered');
    expect(card().querySelector('[data-testid="call-outcome-note"]')!.textContent).toBe(
      'Nobody answered its question: the host ended it when its time limit ran out. The server then ended with the reply below.',
    );

    // An accepted last round is a plain success, with no note.
    await user.click(screen.getByRole('button', { name: 'Call ping' }));
    await screen.findByText('Running');
    act(() =>
      app.host.finishCall('call-3', { result: reply('pong'), lastAnswer: { action: 'accept', decidedBy: 'human' } }),
    );
    await waitFor(() => expect(card().getAttribute('data-call-state')).toBe('complete'));
    expect(card().querySelector('.pill')!.className).toBe('pill pill-success');
    expect(card().querySelector('[data-testid="call-outcome-note"]')).toBeNull();
  });

  it('edits arguments as JSON when the schema cannot be drawn, and on request', async () => {
    const { app, user } = await open();
    await user.click(screen.getByRole('button', { name: /^nested/ }));
    expect(screen.getByText(/cannot be drawn as a form \("address" has type "object"\)/)).toBeTruthy();
    const json = screen.getByLabelText('Arguments (JSON)');
    await user.clear(json);
    await user.type(json, '{{"address": {{"city": "Bonn"}}');
    await user.type(json, '{Enter}'); // a new line in a multi-line field, not a call
    expect(app.host.calls.some((c) => c.method === 'callTool')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Call nested' }));
    await waitFor(() =>
      expect(app.host.calls.filter((c) => c.method === 'callTool').at(-1)?.params).toEqual({
        server: 'github',
        tool: 'nested',
        args: { address: { city: 'Bonn' } },
      }),
    );
    await user.clear(json);
    await user.type(json, '{{oops');
    await user.click(screen.getByRole('button', { name: 'Call nested' }));
    expect(await screen.findByText(/^This is not valid JSON/)).toBeTruthy();

    // A drawable schema can still be edited as JSON, and the values carry over both ways.
    await user.click(screen.getByRole('button', { name: /^deploy/ }));
    await user.type(screen.getByLabelText(/^Service/), 'api');
    await user.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    expect(JSON.parse((screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement).value)).toEqual({
      service: 'api',
    });
    await user.click(screen.getByRole('button', { name: 'Use the form' }));
    expect((screen.getByLabelText(/^Service/) as HTMLInputElement).value).toBe('api');
  });

  it('says so when the catalog cannot be read, and reads it again on Refresh', async () => {
    const host = await renderApp({ view: 'servers', servers: ['github'], catalogs: { github: catalog } });
    host.host.failNext('listCatalog', 'cannot connect to "github": spawn ENOENT');
    const user = userEvent.setup();
    await user.click(within(screen.getByRole('navigation')).getByRole('button', { name: 'Tools' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not list what github offers: cannot connect to "github": spawn ENOENT',
    );
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('tab', { name: 'Tools (3)' })).toBeTruthy();
  });

  it('sends the human to the Servers view when there is no server', async () => {
    await renderApp({ view: 'tools' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add a server' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Servers' })).toBeTruthy();
  });
});
