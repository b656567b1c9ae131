import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useArmDelay } from './dialog-timing';

/** Props of the modal frame every question dialog sits in. */
export interface DialogFrameProps {
  questionId: string;
  kind: 'form' | 'confirm' | 'url' | 'sign-in';
  labelledBy: string;
  describedBy?: string;
  /** Escape (and only Escape here; the close button is in the header) dismisses: the cancel outcome. */
  onCancel: () => void;
  children: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), ' +
  '[tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus starts on the dialog itself (never on a control, so
 * keys typed elsewhere neither fill a field nor press a button), Tab cycles
 * inside, Escape cancels, and focus returns where it was when it closes.
 */
export default function DialogFrame({
  questionId,
  kind,
  labelledBy,
  describedBy,
  onCancel,
  children,
}: DialogFrameProps) {
  const ref = useRef<HTMLDivElement>(null);
  const armDelay = useArmDelay();
  const armedAt = useRef(performance.now() + armDelay);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    // The frame is mounted at the top of its overlay, in view: scrolling it there would force a layout of the
    // whole page before the dialog's first paint (docs/benchmarks.md, question arrival to dialog painted).
    ref.current?.focus({ preventScroll: true });
    return () => {
      // Give focus back only if it is still inside the closing dialog (or lost), and the old spot still exists.
      const active = document.activeElement;
      if (
        previous &&
        previous.isConnected &&
        (active === null || active === document.body || ref.current?.contains(active))
      ) {
        previous.focus();
      }
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement> | globalThis.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (!e.repeat && performance.now() >= armedAt.current) onCancel();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[hidden]'));
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    const active = document.activeElement;
    const outside = !ref.current.contains(active);
    if (e.shiftKey && (active === first || active === ref.current || outside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || outside)) {
      e.preventDefault();
      first.focus();
    }
  };
  // Focus can fall to the page when the focused control vanishes (a step of
  // the dialog replaced it). Keys then still belong to the dialog: Escape
  // cancels, Tab comes back to the dialog's first control, never to whatever
  // follows on the page. The handler is read through a ref so the listener stays put.
  const keyHandler = useRef(onKeyDown);
  keyHandler.current = onKeyDown;
  useEffect(() => {
    const onPageKey = (e: globalThis.KeyboardEvent) => {
      const active = document.activeElement;
      if (active === null || active === document.body) keyHandler.current(e);
    };
    document.addEventListener('keydown', onPageKey);
    return () => document.removeEventListener('keydown', onPageKey);
  }, []);

  return (
    <div className="dialog-backdrop">
      <div
        ref={ref}
        className={`dialog dialog-${kind}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        tabIndex={-1}
        data-question-id={questionId}
        data-kind={kind}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
}
