// The browser-test harness: the real renderer UI over an in-page HostApi.
// Playwright drives it through a few globals:
//   __pushQuestion(q)           a question arrives over the host API
//   __withdraw(id, reason, n?)  the host takes a question away
//   __setOpenResult(r)          what openQuestionUrl answers next
//   __failNextAnswer(msg)       the next answerQuestion rejects
//   __hostCalls                 every HostApi call, in order
//   __analyzeUrl(href)          the shared URL analysis, to build URL questions
//   __measurePaint(q)           a question pushed at a random moment: times to its dialog painted
//   __measurePaintInFrame(q)    a question pushed at the start of a frame: in which frame it painted, and when
//   __validatorEngine()         which engine validates forms here ('ajv' | 'interpreter')
//   __ready                     true once the app has loaded its first state
// Query parameters: theme=light|dark|system, lang=en|de|system, arm=<ms>.
// First: before any zod schema parses (the MCP Apps bridge carries the SDK's), see zod-jitless.ts.
import './views/tools/apps/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Question } from '../../shared/elicitation/types';
import type { HostEvents, HostResults, Settings } from '../../shared/host-api/contract';
import { analyzeUrl } from '../../shared/url/analyze-url';
import { createInMemoryHost, type HostCall } from './api/in-memory-host';
import App from './app/App';
import { createStores } from './app/stores';
import { getFormValidator } from './forms/shared-validator';
import './styles/index.css';

declare global {
  interface Window {
    __hostCalls: HostCall[];
    __pushQuestion: (q: Question) => void;
    __withdraw: (id: string, reason: HostEvents['questionRemoved']['reason'], note?: string) => void;
    __setOpenResult: (r: HostResults['openQuestionUrl']) => void;
    __failNextAnswer: (message: string) => void;
    __analyzeUrl: typeof analyzeUrl;
    __measurePaint: (q: Question) => Promise<PaintTimes>;
    __measurePaintInFrame: (q: Question) => Promise<FramePaintTimes>;
    __validatorEngine: () => 'ajv' | 'interpreter';
    __ready: boolean;
  }
}

const params = new URLSearchParams(location.search);
const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const settings: Partial<Settings> = {
  theme: pick(params.get('theme'), ['system', 'light', 'dark'] as const, 'system'),
  language: pick(params.get('lang'), ['system', 'en', 'de'] as const, 'en'),
};
const armDelayMs = Number(params.get('arm') ?? 400);

const host = createInMemoryHost({ settings, servers: ['github', 'calendar', 'files', 'payments', 'weather'] });
window.__hostCalls = host.calls;
window.__pushQuestion = (q) => host.push(q);
window.__withdraw = (id, reason, note) => host.withdraw(id, reason, note);
window.__setOpenResult = (r) => host.setOpenResult(r);
window.__failNextAnswer = (m) => host.failNextAnswer(m);
window.__analyzeUrl = analyzeUrl;
window.__validatorEngine = () => getFormValidator().engine();

/** ms from a push (arrival) to the dialog's node committed, to the frame that paints it starting, to after it. */
interface PaintTimes {
  /** The renderer's work: arrival to the dialog in the DOM (React's render, commit and effects). */
  domMs: number;
  /** Arrival to the start of the frame that paints it (requestAnimationFrame). */
  frameStartMs: number;
  /** Arrival to after that frame's paint. */
  paintedMs: number;
}

/** PaintTimes for an arrival at the start of a frame, and how many frames went by before the one that painted it. */
interface FramePaintTimes extends PaintTimes {
  /** 0: painted in the very frame it arrived in (the dialog's work and rendering fit in one frame). */
  framesMissed: number;
}

const questionNode = (q: Question) => `[data-question-id="${CSS.escape(q.id)}"]`;

/** Resolves at the first DOM mutation after which `selector` matches (run before the push). */
function whenInDom(selector: string): Promise<number> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) {
        observer.disconnect();
        resolve(performance.now());
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/**
 * After the frame that starts next has painted: requestAnimationFrame runs just before that frame's style, layout
 * and paint; a message posted from it is handled after them. Resolves with [frame start, after its paint].
 */
const nextFramePainted = () =>
  new Promise<[number, number]>((resolve) =>
    requestAnimationFrame(() => {
      const start = performance.now();
      afterThisFrame(() => resolve([start, performance.now()]));
    }),
  );

/** From inside a requestAnimationFrame callback: `then` runs once this frame has painted. */
function afterThisFrame(then: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => then();
  channel.port2.postMessage(null);
}

// Arrival at a random moment (as a question from a server comes): its dialog's node committed, then the frame that
// contains it. This includes the wait for the display's next frame (0 to one frame, by chance), which the renderer
// does not control.
window.__measurePaint = async (q) => {
  const inDom = whenInDom(questionNode(q));
  const t0 = performance.now();
  host.push(q);
  const dom = await inDom;
  const [start, painted] = await nextFramePainted();
  return { domMs: dom - t0, frameStartMs: start - t0, paintedMs: painted - t0 };
};

// Arrival at the start of a frame (inside its requestAnimationFrame callback): the renderer's work and that frame's
// style, layout and paint, with no wait for the display; "within one frame" is framesMissed 0 and paintedMs under
// one frame's time.
window.__measurePaintInFrame = (q) =>
  new Promise<FramePaintTimes>((resolve) => {
    const selector = questionNode(q);
    requestAnimationFrame(() => {
      const inDom = whenInDom(selector);
      // The frames that start after this one, counted until the dialog has painted (a callback requested earlier
      // runs first in its frame: the count includes the frame that paints it).
      let frames = 0;
      let counting = true;
      const count = () =>
        requestAnimationFrame(() => {
          frames += 1;
          if (counting) count();
        });
      count();
      const t0 = performance.now();
      host.push(q);
      afterThisFrame(() => {
        const painted = performance.now();
        void inDom.then(async (dom) => {
          if (dom <= painted) {
            counting = false;
            resolve({ domMs: dom - t0, frameStartMs: 0, paintedMs: painted - t0, framesMissed: 0 });
            return;
          }
          const [start, after] = await nextFramePainted();
          counting = false;
          resolve({ domMs: dom - t0, frameStartMs: start - t0, paintedMs: after - t0, framesMissed: frames });
        });
      });
    });
  });

const stores = createStores(host.api);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App stores={stores} armDelayMs={armDelayMs} autoDismissNotesMs={0} />
  </StrictMode>,
);
void stores.start().then(() => {
  window.__ready = true;
});
