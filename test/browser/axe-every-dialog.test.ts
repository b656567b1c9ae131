// Issue 11, done-when: axe-core (colour contrast included) reports nothing on
// any dialog kind, opened over each view, in light and in dark, in real
// Chromium through the web shell. One page for the whole sweep: each view is
// picked, then each kind of dialog is opened over it by a real call (or a
// real sign-in against oidc-provider), checked in both themes, and dismissed.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startOidcFixture, type OidcFixture } from '../fixtures/oauth/oidc-authorization-server';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { axe, setTheme, type AppShell } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const legacy = fixtureCommand('legacy');
const VIEWS = ['Servers', 'Tools', 'History', 'Settings'] as const;

let oidc: OidcFixture | undefined;
afterEach(async () => {
  await oidc?.close();
  oidc = undefined;
});

/** How to open one kind of dialog, and a text that shows it is up. */
interface Kind {
  name: string;
  open(app: AppShell): void;
  shows: string;
}

const tool =
  (server: string, name: string, args: Record<string, unknown> = {}) =>
  (app: AppShell) =>
    void app.service.invoke('callTool', { server, tool: name, args }).catch(() => undefined);

const KINDS: Kind[] = [
  { name: 'form', open: tool('kimai', 'book_time'), shows: 'Description' },
  { name: 'confirm-only', open: tool('kimai', 'confirm_delete', { entryId: 3 }), shows: 'Delete time entry 3?' },
  { name: 'URL', open: tool('kimai', 'connect_account'), shows: 'Connect your Example account to Countersign' },
  { name: 'look-alike URL', open: tool('kimai', 'lookalike_link'), shows: 'Looks like' },
  { name: 'multi-question round', open: tool('kimai', 'three_questions'), shows: 'Question 1 of 3 from kimai' },
  { name: 'legacy question', open: tool('old', 'book_time'), shows: 'Description' },
  {
    name: 'sign-in',
    open: (app) => void app.service.invoke('signIn', { server: 'notes' }).catch(() => undefined),
    shows: 'notes asks you to sign in',
  },
];

/** Escape until no dialog is left (a round shows its questions one after another; answer buttons arm first). */
async function dismissAll(page: Page): Promise<void> {
  const dialog = page.locator('[role="dialog"]');
  for (let i = 0; i < 80 && (await dialog.count()) > 0; i++) {
    await dialog
      .first()
      .press('Escape')
      .catch(() => undefined);
    await page.waitForTimeout(100);
  }
  expect(await dialog.count()).toBe(0);
}

describe('axe over every dialog kind, over every view, in light and dark', () => {
  it('finds no violation anywhere', { timeout: 600_000 }, async () => {
    oidc = await startOidcFixture();
    const { app, page, problems } = await suite.open({
      settings: { theme: 'light', language: 'en' },
      servers: {
        kimai: { command: modern.command, args: modern.args },
        old: { command: legacy.command, args: legacy.args },
        notes: { url: oidc.server.url },
      },
    });
    for (const server of ['kimai', 'old'])
      await page.locator(`.server-card[data-server="${server}"][data-status="connected"]`).waitFor({ timeout: 30_000 });
    await page.locator('.server-card[data-server="notes"]').getByText('Sign-in needed').waitFor({ timeout: 30_000 });

    const violations: string[] = [];
    for (const view of VIEWS) {
      await page.getByRole('navigation').getByRole('button', { name: view, exact: true }).click();
      // Each view as a user leaves it: a tool's argument form open (its fields have ids of their
      // own), a history entry's detail with its recorded form.
      if (view === 'Tools') {
        await page.locator('.server-select').selectOption('kimai');
        await page.getByRole('button', { name: /^file_note/ }).click();
      }
      if (view === 'History') await page.locator('.history-row', { hasText: 'Book time' }).first().click();
      for (const kind of KINDS) {
        kind.open(app);
        await page.getByRole('dialog').getByText(kind.shows).first().waitFor({ timeout: 30_000 });
        for (const theme of ['light', 'dark'] as const) {
          await setTheme(app, page, theme);
          for (const v of await axe(page)) violations.push(`${kind.name} over ${view}, ${theme}: ${v}`);
        }
        await setTheme(app, page, 'light');
        await dismissAll(page);
      }
    }
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
