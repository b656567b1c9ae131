// A box that scrolls must be reachable by keyboard, or its hidden part cannot
// be read without a mouse. This makes the box a tab stop only while it
// actually overflows, so short content adds no needless stop.
import { useEffect, useState, type RefObject } from 'react';

/** tabIndex for `ref`'s element: 0 while its content overflows, else undefined. */
export function useScrollFocus(ref: RefObject<HTMLElement | null>): 0 | undefined {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    if (typeof ResizeObserver === 'undefined') {
      measure();
      return;
    }
    // No measuring here: reading scrollHeight as the dialog mounts forces a layout of the whole page before it
    // can paint. The observer's first report comes in the frame that lays the box out, before that frame paints.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return overflows ? 0 : undefined;
}
