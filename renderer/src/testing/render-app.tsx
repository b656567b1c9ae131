// Renders the whole renderer over an in-memory host, the way tests meet it.
import { cleanup, render, waitFor, type RenderResult } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import type { Question } from '../../../shared/elicitation/types';
import { createInMemoryHost, type InMemoryHost, type InMemoryHostOptions } from '../api/in-memory-host';
import App from '../app/App';
import type { ViewName } from '../app/views';
import { createStores, type RendererStores } from '../app/stores';
import { questionsWaiting } from '../state/question-queue';

// jsdom has no CSS.escape; user-event needs it for arrow keys in radio groups.
const css = ((globalThis as { CSS?: { escape?: (s: string) => string } }).CSS ??= {});
css.escape ??= (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`);

// The vitest config has no globals, so Testing Library cannot register its
// own cleanup: every test file importing this module gets it here.
afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('data-theme');
});

/** What renderApp returns. */
export interface RenderedApp extends RenderResult {
  host: InMemoryHost;
  stores: RendererStores;
  /** The answerQuestion calls so far, as {questionId, answer}. */
  answers(): Array<{ questionId: string; answer: unknown }>;
}

/**
 * Starts stores over a fresh in-memory host and renders <App> (arm delay 0
 * unless given). It opens on the Settings view unless told otherwise: the
 * dialog tests written before the app frame expect language and theme at hand.
 */
export async function renderApp(
  options: InMemoryHostOptions & { armDelayMs?: number; questions?: Question[]; view?: ViewName } = {},
): Promise<RenderedApp> {
  const host = createInMemoryHost({ settings: { language: 'en' }, ...options });
  const stores = createStores(host.api);
  const result = render(
    <App
      stores={stores}
      armDelayMs={options.armDelayMs ?? 0}
      autoDismissNotesMs={0}
      initialView={options.view ?? 'settings'}
    />,
  );
  await stores.start();
  await waitFor(() => expect(stores.queue.getState().loaded).toBe(true));
  // The app frame follows the queue a render after the dialogs (App.tsx, useDeferredValue): wait for it too, so a
  // test starts from an app drawn with what was loaded (inert behind waiting questions, their count shown).
  const { questions, drafts } = stores.queue.getState();
  const waiting = questionsWaiting(questions, drafts) > 0;
  await waitFor(() => expect(result.container.querySelector('.app')?.hasAttribute('inert')).toBe(waiting));
  return {
    ...result,
    host,
    stores,
    answers: () =>
      host.calls
        .filter((c) => c.method === 'answerQuestion')
        .map((c) => c.params as { questionId: string; answer: unknown }),
  };
}
