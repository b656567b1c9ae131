// The review step of "Import from a file…" over the in-memory host: a dry run
// first, nothing written until Add, Cancel and Escape write nothing, unchecked
// servers stay out, and `${input:…}` values (password inputs as password
// fields) go to the host once, with Add.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';

// VS Code's mcp.json: one stdio server with a password input, one HTTP server with a header, and a bad entry.
const mcpJson = JSON.stringify({
  inputs: [
    { type: 'promptString', id: 'brave-key', description: 'Brave Search API key', password: true },
    { type: 'promptString', id: 'team', description: 'Team name' },
  ],
  servers: {
    brave: {
      command: 'npx',
      args: ['-y', '@brave/brave-search-mcp-server'],
      env: { BRAVE_API_KEY: '${input:brave-key}', TEAM: '${input:team}' },
    },
    docs: { url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
    broken: { nothing: true },
  },
});

const importCalls = (app: Awaited<ReturnType<typeof renderApp>>) =>
  app.host.calls.filter((c) => c.method === 'importServers').map((c) => c.params as Record<string, unknown>);

async function openReview() {
  const app = await renderApp({ view: 'servers', servers: ['kimai'] });
  const user = userEvent.setup();
  await user.upload(screen.getByTestId('import-file'), new File([mcpJson], 'mcp.json'));
  const review = await screen.findByRole('dialog', { name: 'Add servers from mcp.json?' });
  return { app, user, review, dialog: within(review) };
}

describe('Import review', () => {
  it('asks the host for a dry run first and shows what each server runs, its hidden names and what is skipped', async () => {
    const { app, review, dialog } = await openReview();
    expect(importCalls(app)).toEqual([{ json: mcpJson, fileName: 'mcp.json', dryRun: true }]);
    expect(app.stores.servers.getState().servers.map((s) => s.name)).toEqual(['kimai']);
    // Focus rests on the dialog, never on Add.
    expect(document.activeElement).toBe(review);
    const brave = within(review.querySelector<HTMLElement>('[data-server="brave"]')!);
    expect(brave.getByText('npx -y @brave/brave-search-mcp-server').tagName).toBe('CODE');
    expect(brave.getByText('Environment variables (values hidden): BRAVE_API_KEY, TEAM')).toBeTruthy();
    const docs = within(review.querySelector<HTMLElement>('[data-server="docs"]')!);
    expect(docs.getByText('https://docs.example.com/mcp').closest('a')).toBeNull();
    expect(docs.getByText('Headers (values hidden): Authorization')).toBeTruthy();
    expect(review.textContent).not.toContain('Bearer abc');
    expect(review.querySelector('.import-skipped')?.textContent).toContain('broken: server "broken"');
    expect(dialog.getByRole('checkbox', { name: 'brave' })).toHaveProperty('checked', true);
    expect(dialog.getByRole('checkbox', { name: 'docs' })).toHaveProperty('checked', true);
    expect(dialog.getByRole('button', { name: 'Add 2 servers' })).toBeTruthy();
  });

  it('Enter in a field does not add, Cancel writes nothing, and Escape writes nothing', async () => {
    const { app, user, dialog } = await openReview();
    await user.type(dialog.getByLabelText('Team name'), 'core{Enter}');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.upload(screen.getByTestId('import-file'), new File([mcpJson], 'mcp.json'));
    await screen.findByRole('dialog', { name: 'Add servers from mcp.json?' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(importCalls(app).every((p) => p['dryRun'] === true)).toBe(true);
    expect(importCalls(app)).toHaveLength(2);
    expect(app.stores.servers.getState().servers.map((s) => s.name)).toEqual(['kimai']);
    expect(screen.queryByRole('status', { name: 'Import from mcp.json' })).toBeNull();
  });

  it('imports only the checked servers, with the typed values; a password input is a password field', async () => {
    const { app, user, dialog } = await openReview();
    const key = dialog.getByLabelText('Brave Search API key');
    expect(key.getAttribute('type')).toBe('password');
    expect(key.getAttribute('autocomplete')).toBe('off');
    expect(dialog.getByLabelText('Team name').getAttribute('type')).toBe('text');
    await user.type(key, 's3cret-key');
    await user.click(dialog.getByRole('checkbox', { name: 'docs' }));
    await user.click(dialog.getByRole('button', { name: 'Add 1 server' }));
    await screen.findByRole('status', { name: 'Import from mcp.json' });
    expect(screen.queryByRole('dialog')).toBeNull();
    // Sent once, with Add; the empty Team field is not a value (the server says it still needs one).
    expect(importCalls(app)).toEqual([
      { json: mcpJson, fileName: 'mcp.json', dryRun: true },
      { json: mcpJson, fileName: 'mcp.json', names: ['brave'], inputs: { 'brave-key': 's3cret-key' } },
    ]);
    expect(app.stores.servers.getState().servers.map((s) => s.name)).toEqual(['kimai', 'brave']);
    // Nothing of the typed value stays on the page.
    expect(document.body.innerHTML).not.toContain('s3cret-key');
  });

  it('keeps the review open and says why when the import fails', async () => {
    const { app, user, dialog } = await openReview();
    app.host.failNext('importServers', 'servers.json could not be written');
    await user.click(dialog.getByRole('button', { name: 'Add 2 servers' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'The servers could not be added: servers.json could not be written',
    );
    expect(app.stores.servers.getState().servers.map((s) => s.name)).toEqual(['kimai']);
  });
});
