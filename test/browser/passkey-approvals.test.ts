// Passkey-confirmed approvals end to end, in the web shell as `countersign
// web` runs it ('tab' mode), with real fixtures and Chromium's virtual
// authenticator (CTAP2, user verification on, presence automatic): a passkey
// is registered from Settings, a destructive tool's Accept waits for the
// passkey step, the ceremony page confirms it in a new tab, and only then does
// the server get the accept. The history keeps the receipt, which the real
// CLI checks offline; a server that asks for verified approvals gets it with
// the retry; Cancel at the step sends a cancel; revoking the last passkey
// falls back to a plain Accept, recorded as such; a gateway's call takes the
// same path.
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startApprovalServer } from '../../electron/core/approval/approval-server';
import { PasskeyStore } from '../../electron/core/passkeys/passkey-store';
import { parseReceipt, verifyReceipt } from '../../electron/core/passkeys/receipt';
import { DEFAULT_SETTINGS } from '../../shared/settings-defaults';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { runCliIn } from '../support/cli';
import { startAgent, textOf } from '../gateway/harness';
import { answerDialog, axe } from './app-shell';
import { browserSuite } from './browser-suite';
import { authenticatorFor, confirmOn, getCredentials, openStep, type Credential } from './passkey-pages';

const suite = browserSuite();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The credentials registered so far: every new tab's authenticator gets them (an authenticator lives per tab). */
const credentials: Credential[] = [];

/** Register a passkey named `name` from Settings; its credential joins `credentials`. */
async function registerFromSettings(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  const panel = page.getByTestId('passkeys-panel');
  await panel.getByLabel('New passkey, called').fill(name);
  const popup = page.waitForEvent('popup');
  await panel.getByRole('button', { name: 'Register a passkey' }).click();
  const tab = await popup;
  cleanups.push(() => tab.close());
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  expect(new URL(tab.url()).hostname).toBe('localhost');
  const { cdp, authenticatorId } = await authenticatorFor(tab, credentials);
  expect(await confirmOn(tab)).toBe('done');
  await panel.getByTestId('passkeys-list').getByText(name).waitFor();
  const got = await getCredentials(cdp, authenticatorId);
  credentials.push(...got.credentials);
}

/** Answer the open question with Accept, then confirm the passkey step in the tab it opens. */
async function acceptWithPasskey(page: Page): Promise<void> {
  await answerDialog(page, 'Accept');
  const dialog = page.getByRole('dialog', { name: 'Confirm with your passkey' });
  await dialog.waitFor();
  const popup = page.waitForEvent('popup');
  await openStep(page);
  const tab = await popup;
  cleanups.push(() => tab.close());
  await authenticatorFor(tab, credentials);
  expect(await confirmOn(tab)).toBe('done');
  await dialog.waitFor({ state: 'detached' });
}

/** Call `tool` with an entryId from the Tools view of `server`. */
async function callDelete(page: Page, server: string, tool: string, entryId: number): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Servers' }).click();
  await page.locator(`.server-card[data-server="${server}"][data-status="connected"]`).waitFor({ timeout: 30_000 });
  await page.locator(`.server-card[data-server="${server}"]`).getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('button', { name: new RegExp(`^${tool}`) }).click();
  await page.getByLabel('entryId').fill(String(entryId));
  await page.getByRole('button', { name: `Call ${tool}` }).click();
  await page.getByRole('dialog').getByText(`Delete time entry ${entryId}?`).waitFor();
}

const resultText = (page: Page) => page.locator('.call-card').first().locator('.result-text').textContent();

/** The answer entries of the app's history, newest first. */
async function answers(app: { service: { invoke: (m: 'queryHistory', p: object) => Promise<any> } }) {
  const history = await app.service.invoke('queryHistory', {});
  return (history.entries as any[]).flatMap((item) => (item.kind === 'question' && item.answer ? [item.answer] : []));
}

/**
 * The web shell on the modern fixture (as "kimai"), no passkey yet: `destructive` turns on Settings → passkeys for
 * destructive tools, and `key` registers one from Settings.
 */
async function openKimai(options: { destructive?: boolean; key?: string } = {}) {
  credentials.length = 0;
  const modern = fixtureCommand('modern');
  const opened = await suite.open({
    settings: {
      theme: 'light',
      language: 'en',
      ...(options.destructive ? { passkeys: { ...DEFAULT_SETTINGS.passkeys, destructive: true } } : {}),
    },
    servers: { kimai: { command: modern.command, args: modern.args } },
    linkOpening: 'tab',
  });
  if (options.key) await registerFromSettings(opened.page, options.key);
  return opened;
}

describe('passkey-confirmed approvals in the web shell', () => {
  it('register, accept, confirm on the page: the server gets the accept, the history the receipt, the CLI checks it', async () => {
    const { app, page, problems } = await openKimai({ destructive: true, key: 'laptop' });

    await callDelete(page, 'kimai', 'confirm_delete', 42);
    await answerDialog(page, 'Accept');
    const step = page.getByRole('dialog', { name: 'Confirm with your passkey' });
    await step.waitFor();
    // The step names why, has no accept of its own, and leaves nothing sent until the page confirmed.
    await expect(step.getByTestId('passkey-reason').textContent()).resolves.toContain(
      'the server marks this tool destructive',
    );
    expect(await step.getByRole('button', { name: 'Accept' }).count()).toBe(0);
    expect(await axe(page)).toEqual([]);
    expect(await page.locator('.call-card').first().locator('.result-text').count()).toBe(0);
    const popup = page.waitForEvent('popup');
    await openStep(page);
    const tab = await popup;
    cleanups.push(() => tab.close());
    await authenticatorFor(tab, credentials);
    expect(await confirmOn(tab)).toBe('done');
    await expect(resultText(page)).resolves.toBe('deleted entry 42');

    const [answer] = await answers(app);
    expect(answer.passkey.status).toBe('confirmed');
    expect(answer.passkey.reason).toContain('destructive');
    const receipt = parseReceipt(answer.passkey.receipt);
    expect(receipt.payload.tool).toBe('confirm_delete');
    const store = await PasskeyStore.open(app.dataDir);
    expect((await verifyReceipt(receipt, store.list())).name).toBe('laptop');
    // The real CLI, offline, against the data folder: the receipt of that entry, and that it signed that answer.
    const cli = await runCliIn(app.dataDir, ['receipt', 'verify', '--entry', String(answer.seq)]);
    expect(cli.stderr).toEqual([]);
    expect(cli.code).toBe(0);
    expect(cli.stdout.join('\n')).toContain('valid: signed by the passkey "laptop"');
    expect(cli.stdout.join('\n')).toContain('the recorded answer is the one the passkey signed');
    // An entry without a receipt is refused by name.
    const none = await runCliIn(app.dataDir, ['receipt', 'verify', '--entry', String(answer.seq - 1)]);
    expect(none.code).toBe(1);
    expect(problems).toEqual([]);
  });

  it('a server that asks for verified approvals gets the receipt with the retry; Cancel at the step sends a cancel', async () => {
    const { app, page, problems } = await openKimai({ key: 'key' });
    // The policy is off: the tool's own listing asks for a passkey.
    await callDelete(page, 'kimai', 'verified_delete', 5);
    await acceptWithPasskey(page);
    const text = (await resultText(page))!;
    const match = /^accept: entry 5; evidence: (.*)$/.exec(text);
    expect(match).not.toBeNull();
    const evidence = JSON.parse(match![1]!) as { method: string; receipts: Record<string, unknown> };
    expect(evidence.method).toBe('countersign-receipt/1');
    expect(Object.keys(evidence.receipts)).toEqual(['confirm']);
    const store = await PasskeyStore.open(app.dataDir);
    const sent = parseReceipt(evidence.receipts.confirm);
    expect((await verifyReceipt(sent, store.list())).name).toBe('key');
    expect(sent.payload.tool).toBe('verified_delete');

    await callDelete(page, 'kimai', 'verified_delete', 6);
    await answerDialog(page, 'Accept');
    await page.getByRole('dialog', { name: 'Confirm with your passkey' }).waitFor();
    await answerDialog(page, 'Cancel');
    await expect(resultText(page)).resolves.toBe('cancel: entry 6; evidence: none');
    const [answer] = await answers(app);
    expect(answer.action).toBe('cancel');
    expect(answer.decidedBy).toBe('human');
    expect(answer.passkey).toMatchObject({ status: 'cancelled', detail: 'cancelled at the passkey step' });
    expect(problems).toEqual([]);
  });

  it('revoking the last passkey falls back to a plain Accept, which the history records as such', async () => {
    const { app, page, problems } = await openKimai({ destructive: true, key: 'old key' });
    const panel = page.getByTestId('passkeys-panel');
    await panel.getByRole('button', { name: 'Revoke' }).click();
    await panel.getByText(/^revoked /).waitFor();
    await panel.getByTestId('passkeys-none').waitFor();
    expect(await axe(page)).toEqual([]);
    await callDelete(page, 'kimai', 'confirm_delete', 9);
    await answerDialog(page, 'Accept');
    await expect(resultText(page)).resolves.toBe('deleted entry 9');
    const [answer] = await answers(app);
    expect(answer.passkey.status).toBe('fallback');
    expect(answer.passkey.detail).toContain('no passkey is registered');
    expect(problems).toEqual([]);
  });

  it('a gateway agent’s call takes the same passkey step in the app, and the agent gets the result', async () => {
    const { app, page, problems } = await openKimai({ destructive: true, key: 'laptop' });
    const approval = await startApprovalServer({
      service: app.service,
      dataDir: app.dataDir,
      app: 'test',
      log: () => undefined,
    });
    cleanups.push(() => approval.close());
    const agent = await startAgent(app.dataDir, { name: 'test-agent' });
    cleanups.push(() => agent.close());
    const call = agent.client.callTool({ name: 'kimai__confirm_delete', arguments: { entryId: 7 } });
    await page.getByRole('dialog').getByText('Delete time entry 7?').waitFor({ timeout: 30_000 });
    await acceptWithPasskey(page);
    expect(textOf(await call)).toBe('deleted entry 7');
    const [answer] = await answers(app);
    expect(answer.passkey.status).toBe('confirmed');
    // The payload hashed the arguments the gateway sent, the very ones the server got.
    const receipt = parseReceipt(answer.passkey.receipt);
    const { hashOf } = await import('../../electron/core/passkeys/payload');
    expect(receipt.payload.argumentsHash).toBe(hashOf({ entryId: 7 }));

    // Arguments too large to travel to the app: no payload could name them, so nobody can confirm, and the agent
    // is told so; nothing is deleted.
    const big = agent.client.callTool({
      name: 'kimai__confirm_delete',
      arguments: { entryId: 8, note: 'x'.repeat(70_000) },
    });
    await page.getByRole('dialog').getByText('Delete time entry 8?').waitFor({ timeout: 30_000 });
    await answerDialog(page, 'Accept');
    const refused = textOf(await big);
    expect(refused).toContain("declined: needs the person's passkey");
    expect(refused).not.toContain('deleted entry 8');
    expect(problems).toEqual([]);
  });

  it('the first destructive question offers the passkey; "Not now" is kept, turning it on applies to that very Accept', async () => {
    const { app, page, problems } = await openKimai();
    await callDelete(page, 'kimai', 'confirm_delete', 11);
    const offer = page.getByRole('dialog').getByTestId('passkey-offer');
    await offer.waitFor();
    expect(await axe(page)).toEqual([]);
    await offer.getByRole('button', { name: 'Not now' }).click();
    await offer.waitFor({ state: 'detached' });
    expect((await app.service.invoke('getSettings', {})).passkeys).toMatchObject({
      suggest: false,
      destructive: false,
    });
    await answerDialog(page, 'Accept');
    await expect(resultText(page)).resolves.toBe('deleted entry 11');

    // Offered again only after the person asks for it back (Settings keeps the choice); turning it on from the offer:
    await app.service.invoke('updateSettings', { passkeys: { ...DEFAULT_SETTINGS.passkeys } });
    await registerFromSettings(page, 'laptop');
    await callDelete(page, 'kimai', 'confirm_delete', 12);
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Ask for a passkey on destructive tools' }).click();
    await offer.waitFor({ state: 'detached' });
    expect((await app.service.invoke('getSettings', {})).passkeys).toMatchObject({ suggest: false, destructive: true });
    await acceptWithPasskey(page);
    await expect(resultText(page)).resolves.toBe('deleted entry 12');
    expect((await answers(app))[0].passkey.status).toBe('confirmed');
    expect(problems).toEqual([]);
  });
});
