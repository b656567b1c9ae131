// The built renderer under main's real response headers (the CSP of
// electron/main/csp.ts, as app-protocol.ts sends it), in Debian's Chromium:
// the app page over a stand-in preload bridge, and the browser-test harness
// with a form and a link dialog open, must run without one CSP violation.
// Served over loopback http because Chromium has no app:// here; the policy
// is the same header. Needs /usr/bin/chromium (scripts/test.sh installs it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRequestHandler } from '../../electron/main/app-protocol';
import { HOST_METHOD_NAMES } from '../../shared/host-api/names';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('renderer under the main-process CSP (Chromium)', { timeout: 90_000 }, () => {
  let work: string;
  let server: Server;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'countersign-csp-'));
    const build = spawnSync(
      process.execPath,
      [join(root, 'scripts/build.mjs'), '--out', join(work, 'dist'), '--no-cli'],
      { cwd: root, encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
    // The very handler main registers for app://, fed loopback requests.
    const handle = createAppRequestHandler(join(work, 'dist', 'renderer'), async (p) => readFileSync(p));
    server = createServer(async (req, res) => {
      const response = await handle({ url: `app://countersign${req.url ?? '/'}`, method: req.method ?? 'GET' });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function open(path: string, violations: string[], bridgeMethods?: string[]): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy|^csp-violation/.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.log(`csp-violation ${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    if (bridgeMethods) {
      // What the preload exposes, with canned answers: the app page needs a host to start.
      await page.addInitScript((methods: string[]) => {
        const settings = { maxRounds: 10, language: 'en', theme: 'system', redactHistory: false };
        const results: Record<string, unknown> = {
          listServers: [],
          listQuestions: [],
          getSettings: settings,
          queryHistory: { total: 0, complete: true, entries: [] },
        };
        const api: Record<string, unknown> = { on: () => () => undefined };
        for (const m of methods) api[m] = async () => results[m] ?? null;
        (window as unknown as { countersign: unknown }).countersign = Object.freeze(api);
      }, bridgeMethods);
    }
    await page.goto(base + path);
    return page;
  }

  it('runs the app page over a preload-shaped bridge with no violation', async () => {
    const violations: string[] = [];
    const page = await open('/index.html', violations, [...HOST_METHOD_NAMES]);
    await page.getByText('Countersign').first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('renders form and link dialogs in the harness with no violation, validating without eval', async () => {
    const violations: string[] = [];
    const page = await open('/harness.html', violations);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready === true, null, {
      timeout: 15_000,
    });
    await page.evaluate(() => {
      const w = window as unknown as { __pushQuestion(q: unknown): void; __analyzeUrl(h: string): unknown };
      const origin = { server: 'Kimai', era: 'modern', method: 'tools/call', name: 'book', round: 1, key: 'k' };
      w.__pushQuestion({
        id: 'f1',
        mode: 'form',
        origin,
        message: 'Book 2h?',
        requestedSchema: {
          type: 'object',
          properties: {
            hours: { type: 'number', title: 'Hours', minimum: 0 },
            note: { type: 'string' },
            ok: { type: 'boolean' },
          },
          required: ['hours'],
        },
      });
      w.__pushQuestion({
        id: 'u1',
        mode: 'url',
        origin,
        message: 'Connect',
        url: w.__analyzeUrl('https://xn--pple-43d.com/login'),
      });
    });
    await page.getByText('Book 2h?').waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __validatorEngine(): string }).__validatorEngine())).toBe(
      'interpreter',
    );
    expect(violations).toEqual([]);
    // The watcher works: a blocked inline style is reported.
    await page.evaluate(() => document.body.setAttribute('style', 'color: red'));
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    await page.close();
  });
});
