// The busy/problem runner behind a card's buttons: one action at a time,
// which one is running (so its button can say so), and why the last one
// failed until the next one starts.
import { useCallback, useRef, useState } from 'react';
import { errorText } from '../../state/store';

/** What useAction gives a component. */
export interface ActionRunner<K extends string> {
  /** The action running now, or null. */
  busy: K | null;
  /** Why the last action failed, or null (cleared when another starts). */
  problem: string | null;
  /** Runs `action` as `what` unless one is running already; a failure becomes `problem`, never a throw. */
  run: (what: K, action: () => Promise<void>) => Promise<void>;
  /** A button's props for `what`: marked aria-disabled while it runs, running `action` on a click. */
  button: (what: K, action: () => Promise<void>) => { 'aria-disabled': true | undefined; onClick: () => void };
}

/** One action at a time for a component's buttons, with its failure kept for an alert. */
export function useAction<K extends string>(): ActionRunner<K> {
  const [busy, setBusy] = useState<K | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A ref as well as state: a second click before React redraws must not start a second action.
  const running = useRef(false);
  const run = useCallback(async (what: K, action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(what);
    setProblem(null);
    try {
      await action();
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      running.current = false;
      setBusy(null);
    }
  }, []);
  const button = (what: K, action: () => Promise<void>) => ({
    'aria-disabled': busy === what || undefined,
    onClick: () => void run(what, action),
  });
  return { busy, problem, run, button };
}
