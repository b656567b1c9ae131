// Passkey benchmark (issue 26 item 9): what the passkey step adds to an
// approval, beside a plain Accept, in the same run. Real web shell ('tab'
// mode), real Chromium, the modern fixture's confirm_delete, and the DevTools
// virtual authenticator with user presence automatic. A person's own time (the
// dialog's arming delay, reading, the clicks) is not counted: each figure runs
// from a click, as soon as its button takes it, to what the click leads to.
//   plain:   Accept → the result painted;
//   passkey: Accept → the step's dialog shown, plus "Open confirmation page" →
//            the page ready to confirm, plus its Confirm → the result painted
//            (sign, post, verify, send, the server's reply, the paint).
// Run alone with:
//   npx tsx bench/run.ts 'Passkeys (Chromium)'
import type { Page } from 'playwright-core';
import { DEFAULT_SETTINGS } from '../shared/settings-defaults';
import { fixtureCommand } from '../test/fixtures/spawn-fixture';
import { openApp, startAppShell, type AppShell } from '../test/browser/app-shell';
import { buildPrivateRenderer, launchChromium } from '../test/browser/paint-latency';
import { authenticatorFor, confirmOn, getCredentials, type Credential } from '../test/browser/passkey-pages';
import { resultPainted } from './apps.bench';
import type { Figure } from './sections';

const CALLS = 8;
const round = (n: number): number => Number(n.toFixed(1));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const now = (page: Page) => page.evaluate('performance.timeOrigin + performance.now()') as Promise<number>;

/** Click `name` in the dialog once its arming is over (the person's wait, not counted); the click's time. */
async function clickArmed(page: Page, name: string): Promise<number> {
  const button = page.locator('[role="dialog"]').getByRole('button', { name, exact: true });
  await page.locator('[role="dialog"] .actions button:not([data-arming])').first().waitFor();
  await button.waitFor();
  const at = await now(page);
  await button.click();
  return at;
}

async function openShell(passkeys: boolean, rendererDir: string): Promise<AppShell> {
  const modern = fixtureCommand('modern');
  return startAppShell({
    rendererDir,
    settings: {
      theme: 'light',
      language: 'en',
      passkeys: { ...DEFAULT_SETTINGS.passkeys, destructive: passkeys },
    },
    servers: { kimai: { command: modern.command, args: modern.args } },
    linkOpening: 'tab',
  });
}

async function toTool(page: Page): Promise<void> {
  await page.locator('.server-card[data-server="kimai"][data-status="connected"]').waitFor({ timeout: 30_000 });
  await page.locator('.server-card[data-server="kimai"]').getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('button', { name: /^confirm_delete/ }).click();
  await page.getByLabel('entryId').fill('1');
}

/** Plain Accept and the passkey step, CALLS each, in one run. */
export async function benchPasskeys(): Promise<Figure[]> {
  const [build, launched] = await Promise.all([buildPrivateRenderer(), launchChromium()]);
  const plainMs: number[] = [];
  const stepShownMs: number[] = [];
  const pageReadyMs: number[] = [];
  const confirmedMs: number[] = [];
  const plain = await openShell(false, build.dir);
  const guarded = await openShell(true, build.dir);
  try {
    const { page: p1 } = await openApp(launched.browser, plain);
    const { page: p2 } = await openApp(launched.browser, guarded);
    // One passkey, registered through the page as a person would.
    const credentials: Credential[] = [];
    const registration = await guarded.service.invoke('registerPasskey', { name: 'bench' });
    const regTab = await launched.browser.newPage();
    const reg = await authenticatorFor(regTab);
    await regTab.goto(registration.openHere!);
    if ((await confirmOn(regTab)) !== 'done') throw new Error('the bench passkey was not registered');
    credentials.push(...(await getCredentials(reg.cdp, reg.authenticatorId)).credentials);
    await regTab.close();
    await toTool(p1);
    await toTool(p2);
    for (let i = 1; i <= CALLS; i++) {
      await p1.getByRole('button', { name: 'Call confirm_delete' }).click();
      const accepted = await clickArmed(p1, 'Accept');
      plainMs.push((await resultPainted(p1, i)) - accepted);

      await p2.getByRole('button', { name: 'Call confirm_delete' }).click();
      const accepted2 = await clickArmed(p2, 'Accept');
      const step = p2.getByRole('dialog', { name: 'Confirm with your passkey' });
      await step.waitFor();
      stepShownMs.push((await now(p2)) - accepted2);
      const popup = p2.waitForEvent('popup');
      const opened = await clickArmed(p2, 'Open confirmation page');
      const tab = await popup;
      const auth = await authenticatorFor(tab, credentials);
      await tab.locator('#ceremony[data-state="ready"]').waitFor();
      pageReadyMs.push((await now(p2)) - opened);
      const confirmAt = await now(p2);
      await tab.click('#confirm');
      confirmedMs.push((await resultPainted(p2, i)) - confirmAt);
      // The next tab's authenticator starts from this one's signature counter: a copy that went back would be refused.
      credentials.splice(0, credentials.length, ...(await getCredentials(auth.cdp, auth.authenticatorId)).credentials);
      await tab.close();
    }
    const passkeyTotal = stepShownMs.map((s, i) => s + pageReadyMs[i]! + confirmedMs[i]!);
    return [
      {
        name: `plain Accept → result painted (median of ${CALLS})`,
        value: round(median(plainMs)),
        unit: 'ms',
        goal: null,
      },
      { name: `passkey: Accept → step shown (median)`, value: round(median(stepShownMs)), unit: 'ms', goal: null },
      {
        name: `passkey: Open → page ready, authenticator attached (median)`,
        value: round(median(pageReadyMs)),
        unit: 'ms',
        goal: null,
      },
      { name: `passkey: Confirm → result painted (median)`, value: round(median(confirmedMs)), unit: 'ms', goal: null },
      {
        name: `passkey approval, all host and browser time (median)`,
        value: round(median(passkeyTotal)),
        unit: 'ms',
        goal: null,
      },
      {
        name: 'passkey approval / plain Accept (medians, same run)',
        value: round(median(passkeyTotal) / median(plainMs)),
        unit: '×',
        goal: null,
      },
    ];
  } finally {
    await plain.close();
    await guarded.close();
    await launched.close();
    await build.remove();
  }
}
