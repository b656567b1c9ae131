// The app frame: sidebar navigation (mouse and keyboard), the waiting badge,
// and axe over every view (contrast is checked in Chromium, test/browser/app-e2e.test.ts).
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { confirmQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

async function violations(): Promise<string[]> {
  const result = await axe.run(document, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

describe('the app frame', () => {
  it('opens on Servers and switches views from the sidebar, marking the current one', async () => {
    await renderApp({ view: 'servers', servers: ['github'] });
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { level: 2, name: 'Servers' })).toBeTruthy();
    expect(nav().getByRole('button', { name: 'Servers' }).getAttribute('aria-current')).toBe('page');
    for (const view of ['Tools', 'History', 'Settings', 'Servers']) {
      await user.click(nav().getByRole('button', { name: view }));
      expect(screen.getByRole('heading', { level: 2, name: view })).toBeTruthy();
      expect(nav().getByRole('button', { name: view }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('is keyboard accessible: Tab reaches the sidebar, arrows move, Enter opens', async () => {
    await renderApp({ view: 'servers' });
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Servers');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('History');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Settings');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { level: 2, name: 'Settings' })).toBeTruthy();
  });

  it('shows how many questions wait, in the sidebar and the title', async () => {
    const app = await renderApp({ view: 'servers', questions: [confirmQuestion(), confirmQuestion()] });
    const status = document.querySelector('.sidebar-status')!;
    expect(status.textContent).toBe('22 questions waiting for you');
    expect(status.querySelector('.waiting-badge')?.getAttribute('aria-hidden')).toBe('true');
    await waitFor(() => expect(document.title).toBe('Countersign (2)'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(status.textContent).toBe('11 question waiting for you'));
    act(() => app.host.withdraw(app.host.waiting()[0]!.id, 'timeout'));
    await waitFor(() => expect(status.textContent).toContain('No questions are waiting.'));
  });

  it('has no axe violations in any view', async () => {
    await renderApp({
      view: 'servers',
      servers: ['github', 'files'],
      catalogs: {
        github: {
          tools: [{ name: 'deploy', inputSchema: { type: 'object', properties: { env: { type: 'string' } } } }],
          prompts: [],
          resources: [],
        },
      },
    });
    const user = userEvent.setup();
    expect(await violations()).toEqual([]);
    await user.click(nav().getByRole('button', { name: 'Tools' }));
    await user.click(await screen.findByRole('button', { name: /^deploy/ }));
    expect(await violations()).toEqual([]);
    await user.click(nav().getByRole('button', { name: 'History' }));
    await screen.findByText('0 entries');
    expect(await violations()).toEqual([]);
    await user.click(nav().getByRole('button', { name: 'Settings' }));
    expect(await violations()).toEqual([]);
  });
});
