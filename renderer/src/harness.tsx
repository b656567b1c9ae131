// The browser-test harness: the real renderer UI over an in-page HostApi.
// Playwright drives it through a few globals:
//   __pushQuestion(q)           a question arrives over the host API
//   __withdraw(id, reason, n?)  the host takes a question away
//   __setOpenResult(r)          what openQuestionUrl answers next
//   __failNextAnswer(msg)       the next answerQuestion rejects
//   __hostCalls                 every HostApi call, in order
//   __analyzeUrl(href)          the shared URL analysis, to build URL questions
//   __measurePaint(q)           ms from __pushQuestion to the dialog painted
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
    __measurePaint: (q: Question) => Promise<number>;
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

// Arrival (push) to paint: wait for the dialog's node to be committed, then for
// the frame that contains it (requestAnimationFrame runs just before that
// frame paints; a message posted from it is handled after the paint).
window.__measurePaint = (q) =>
  new Promise<number>((resolve) => {
    const selector = `[data-question-id="${CSS.escape(q.id)}"]`;
    const painted = (t0: number) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - t0);
        channel.port2.postMessage(null);
      });
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) {
        observer.disconnect();
        painted(t0);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    host.push(q);
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
