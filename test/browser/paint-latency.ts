// Measures the renderer in a real Chromium: question arrival (over the
// in-page HostApi) to dialog painted, and the gzip size of what the app page
// loads. Used by `npm run bench` and by test/browser/dialogs.test.ts, which
// also share the build / serve / launch helpers below.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The repository root. */
export const repoRoot = resolve(fileURLToPath(new URL('../../', import.meta.url)));
/** Where vite puts the renderer. */
export const distDir = join(repoRoot, 'dist', 'renderer');
/** Debian's Chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The CSP the server sends as a header too (the pages also carry it as a meta tag). */
export const TEST_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'";

/** Builds the renderer with vite's JS API into `outDir` (dist/renderer unless told otherwise). */
export async function buildRenderer(outDir: string = distDir): Promise<void> {
  const { build } = await import('vite');
  // Test runners set NODE_ENV=test, and vite keeps a NODE_ENV it finds: React's
  // development build (and dev JSX) would be measured instead of what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(repoRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Builds into a fresh temporary folder: other work in the repository (a
 * packaging test, a developer's `vite build`) may rebuild dist/renderer at
 * any moment, and a page must never load half of one build and half of another.
 */
export async function buildPrivateRenderer(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'countersign-renderer-'));
  await buildRenderer(dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** A static server for a folder on 127.0.0.1 and a free port, sending the strict CSP. */
export interface StaticServer {
  url: string;
  /** Every path requested, to prove nothing else (favicons, previews) was fetched. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `dir` over node:http on 127.0.0.1:0; `extras` maps more URL paths to files (e.g. axe-core for tests). */
export async function serveDir(dir: string = distDir, extras: Record<string, string> = {}): Promise<StaticServer> {
  const root = resolve(dir);
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    requests.push(path);
    const extra = Object.hasOwn(extras, path) ? extras[path] : undefined;
    const file = extra ?? normalize(join(root, path === '/' ? 'index.html' : path));
    if (!extra && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        'content-security-policy': TEST_CSP,
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A launched Chromium with its throw-away profile. */
export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches Debian's Chromium headless. chromium.launch gives every launch a
 * fresh temporary profile folder of its own (it refuses --user-data-dir) and
 * deletes it on close.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
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
  return { browser, close: () => browser.close() };
}

/** Opens the harness page (in a browser locale, en-US by default) and waits until the app is ready. */
export async function openHarness(
  browser: Browser,
  baseUrl: string,
  query: Record<string, string> = {},
  locale = 'en-US',
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 900, height: 760 }, locale });
  const q = new URLSearchParams({ arm: '0', lang: 'en', ...query });
  await page.goto(`${baseUrl}/harness.html?${q}`);
  await page.waitForFunction(() => window.__ready === true);
  return page;
}

/** Gzip size of everything the app page (index.html) loads: its HTML, scripts and styles, via vite's manifest. */
export async function bundleGzipBytes(
  dir: string = distDir,
): Promise<{ total: number; files: Record<string, number> }> {
  type Entry = { file: string; imports?: string[]; css?: string[] };
  const manifest = JSON.parse(await readFile(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, Entry>;
  const entryKey = Object.keys(manifest).find((k) => k.endsWith('index.html'));
  if (!entryKey) throw new Error('index.html is not in the vite manifest');
  const files = new Set<string>(['index.html']);
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || files.has(entry.file)) return;
    files.add(entry.file);
    entry.css?.forEach((c) => files.add(c));
    entry.imports?.forEach(visit);
  };
  visit(entryKey);
  const sizes: Record<string, number> = {};
  let total = 0;
  for (const f of files) {
    const size = gzipSync(await readFile(join(dir, f)), { level: 9 }).length;
    sizes[f] = size;
    total += size;
  }
  return { total, files: sizes };
}

/** A form question of realistic weight for the latency measurement (every widget kind). */
export function benchQuestion(id: string): unknown {
  return {
    id,
    mode: 'form',
    message: 'Please fill in the details for the new issue.',
    origin: {
      server: 'github',
      era: 'modern',
      method: 'tools/call',
      name: 'create_issue',
      argumentsSummary: 'repo="octo/hello"',
      round: 1,
      key: 'k',
    },
    requestedSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title', minLength: 3, maxLength: 80 },
        email: { type: 'string', title: 'Email', format: 'email' },
        due: { type: 'string', title: 'Due date', format: 'date' },
        count: { type: 'integer', title: 'Count', minimum: 1, maximum: 9, default: 2 },
        urgent: { type: 'boolean', title: 'Urgent', default: false },
        kind: { type: 'string', title: 'Kind', enum: ['bug', 'feature', 'question'] },
        labels: {
          type: 'array',
          title: 'Labels',
          items: { type: 'string', enum: ['ui', 'core', 'docs'] },
          maxItems: 2,
        },
      },
      required: ['title', 'kind'],
    },
  };
}

/** Times of one dialog's paint (ms from its arrival), as renderer/src/harness.tsx measures them. */
export interface PaintTimes {
  /** To its node committed in the DOM: the renderer's work. */
  domMs: number;
  /** To the start of the frame that paints it (0 when it arrived at the start of that frame). */
  frameStartMs: number;
  /** To after that frame's paint. */
  paintedMs: number;
}

/** Median and p95 of a set of samples. */
export interface Spread {
  medianMs: number;
  p95Ms: number;
}

/** Result of a latency run. */
export interface PaintLatencyResult {
  /** Arrival at a random moment to painted (includes the wait for the display's next frame). */
  samples: number[];
  medianMs: number;
  p95Ms: number;
  /** The same arrivals split: the work (arrival to DOM), the wait for the next frame, and that frame (to painted). */
  unaligned: { work: Spread; wait: Spread; frame: Spread };
  /**
   * Arrival at the start of a frame (in its requestAnimationFrame callback) to painted: the renderer's work and the
   * painting frame's style, layout and paint, with no wait for the display.
   */
  inFrame: {
    painted: Spread;
    work: Spread;
    /** Of the samples, how many painted in a later frame than the one they arrived in. */
    framesMissedSamples: number;
    samples: Array<PaintTimes & { framesMissed: number }>;
  };
  bundleGzipBytes: number;
  bundleFiles: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Median and p95 of `values`. */
export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { medianMs: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
}

/**
 * Serves and opens the renderer in Chromium (built into a temporary folder,
 * unless `dir` names an existing build), then `runs` times each, alternating
 * which goes first: push a form question at a random moment, and one at the
 * start of a frame; time until its dialog is painted, dismiss it. Returns the
 * median and p95 in ms and the app bundle's gzip size.
 */
export async function measurePaintLatency(
  options: { runs?: number; warmup?: number; dir?: string } = {},
): Promise<PaintLatencyResult> {
  const runs = options.runs ?? 50;
  const warmup = options.warmup ?? 3;
  const built = options.dir ? null : await buildPrivateRenderer();
  const dir = options.dir ?? built!.dir;
  const server = await serveDir(dir);
  const launched = await launchChromium();
  try {
    const page = await openHarness(launched.browser, server.url);
    const unaligned: PaintTimes[] = [];
    const inFrame: Array<PaintTimes & { framesMissed: number }> = [];
    let n = 0;
    const once = async <T>(measure: (q: unknown) => Promise<T>): Promise<T> => {
      const id = `bench-${n++}`;
      const times = await measure(benchQuestion(id));
      // Dismiss (Escape = cancel) and wait until the dialog is gone before the next arrival.
      await page.keyboard.press('Escape');
      await page.waitForFunction((id) => !document.querySelector(`[data-question-id="${id}"]`), id);
      return times;
    };
    const random = () => once((q) => page.evaluate((q) => window.__measurePaint(q as never), q));
    const aligned = () => once((q) => page.evaluate((q) => window.__measurePaintInFrame(q as never), q));
    for (let i = 0; i < warmup + runs; i++) {
      let a: PaintTimes;
      let b: PaintTimes & { framesMissed: number };
      if (i % 2 === 0) {
        a = await random();
        b = await aligned();
      } else {
        b = await aligned();
        a = await random();
      }
      if (i < warmup) continue;
      unaligned.push(a);
      inFrame.push(b);
    }
    const bundle = await bundleGzipBytes(dir);
    const samples = unaligned.map((t) => t.paintedMs);
    const all = spread(samples);
    return {
      samples,
      medianMs: all.medianMs,
      p95Ms: all.p95Ms,
      unaligned: {
        work: spread(unaligned.map((t) => t.domMs)),
        wait: spread(unaligned.map((t) => t.frameStartMs - t.domMs)),
        frame: spread(unaligned.map((t) => t.paintedMs - t.frameStartMs)),
      },
      inFrame: {
        painted: spread(inFrame.map((t) => t.paintedMs)),
        work: spread(inFrame.map((t) => t.domMs)),
        framesMissedSamples: inFrame.filter((t) => t.framesMissed > 0).length,
        samples: inFrame,
      },
      bundleGzipBytes: bundle.total,
      bundleFiles: bundle.files,
    };
  } finally {
    await launched.close();
    await server.close();
    await built?.remove();
  }
}
