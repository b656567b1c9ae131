// Issue 23 §9 in real Chromium through the web shell: a question that arrives
// while the tab is hidden shows a browser notification (once the person
// allowed them) naming the server and the tool, never the message (unless
// Settings says so) or the arguments, and the tab title counts the questions
// waiting. A burst is one notification (one tag) whose text grows.
import { expect, it, vi } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const servers = { kimai: { command: modern.command, args: modern.args } };

// Records each Notification constructed (still constructing the real one) and lets the test hide the tab.
const recordNotifications = () => {
  const w = window as unknown as Record<string, unknown>;
  const notes: Array<{ title: string; body?: string; tag?: string }> = [];
  w.__notes = notes;
  const Real = window.Notification;
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      notes.push({ title, body: options?.body, tag: options?.tag });
    }
  }
  Object.defineProperty(window, 'Notification', { value: Recording, configurable: true, writable: true });
  let hidden = false;
  w.__setHidden = (h: boolean) => {
    hidden = h;
  };
  Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(Document.prototype, 'hidden', { get: () => hidden });
};

it('a hidden tab gets one notification per question, naming server and tool only, and counts them in its title', async () => {
  const { app, page, problems } = await suite.open({ settings: { theme: 'light', language: 'en' }, servers });
  // Nothing asks on load; the Settings view offers a button.
  await expect(page.evaluate(() => Notification.permission)).resolves.toBe('default');
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Allow notifications' }).waitFor();
  await page.context().grantPermissions(['notifications'], { origin: `http://127.0.0.1:${app.shell.port}` });
  await page.addInitScript(recordNotifications);
  await page.reload();
  await page.waitForSelector('nav .nav-item');
  await page.locator('.server-card[data-server="kimai"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.evaluate(() => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(true));
  const notes = () => page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes);

  await app.service.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: 7 } });
  await vi.waitFor(async () => expect(await notes()).toHaveLength(1), { timeout: 30_000 });
  // The title follows the count a render after the dialog (App.tsx's AppFrame), so it is awaited, not read once.
  await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Countersign (1)');
  await app.service.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: 8 } });
  await vi.waitFor(async () => expect(await notes()).toHaveLength(2), { timeout: 30_000 });
  await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Countersign (2)');

  const shown = await notes();
  expect(shown).toEqual([
    {
      title: 'Countersign: a question is waiting',
      body: '"kimai" asks for your input (tool "confirm_delete").',
      tag: 'countersign-questions',
    },
    {
      title: 'Countersign: 2 questions are waiting',
      body: '2 questions from "kimai" ("confirm_delete").',
      tag: 'countersign-questions',
    },
  ]);
  expect(JSON.stringify(shown)).not.toMatch(/Delete time entry|entryId/);
  expect(problems).toEqual([]);
});

it('with "Notifications show: the server, the tool and the question", a single question adds its message', async () => {
  const { app, page, problems } = await suite.open({ settings: { theme: 'light', language: 'en' }, servers });
  await page.context().grantPermissions(['notifications'], { origin: `http://127.0.0.1:${app.shell.port}` });
  await page.addInitScript(recordNotifications);
  await page.reload();
  await page.waitForSelector('nav .nav-item');
  // The person picks it in Settings, as they would.
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Notifications show').selectOption('message');
  await expect.poll(async () => (await app.service.invoke('getSettings', {})).notificationDetail).toBe('message');
  await page.getByRole('navigation').getByRole('button', { name: 'Servers' }).click();
  await page.locator('.server-card[data-server="kimai"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.evaluate(() => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(true));
  const notes = () => page.evaluate(() => (window as unknown as { __notes: unknown[] }).__notes);
  await app.service.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: 7 } });
  await vi.waitFor(async () => expect(await notes()).toHaveLength(1), { timeout: 30_000 });
  const shown = await notes();
  expect(shown).toEqual([
    {
      title: 'Countersign: a question is waiting',
      body: '"kimai" asks for your input (tool "confirm_delete").\n"Delete time entry 7?"',
      tag: 'countersign-questions',
    },
  ]);
  // Arguments stay out even now.
  expect(JSON.stringify(shown)).not.toMatch(/entryId/);
  expect(problems).toEqual([]);
});
