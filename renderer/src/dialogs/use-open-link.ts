// The steps of a dialog whose consent opens a link (URL questions, sign-ins):
// consent, opening (the host opens it), then waiting for the human to finish
// in the browser. A link that could not be opened goes back to consent with
// the reason, so the dialog never claims the browser shows something it does not.
import { useEffect, useRef, useState } from 'react';
import type { UrlDialogExtras } from './dialog-props';

export type OpenPhase = 'consent' | 'opening' | 'waiting';

export function useOpenLink(
  onOpenUrl: () => Promise<{ opened: boolean; reason?: string }>,
  startWaiting = false,
  onOpenedElsewhere?: () => void,
) {
  const [phase, setPhase] = useState<OpenPhase>(startWaiting ? 'waiting' : 'consent');
  const [openError, setOpenError] = useState<string | null>(null);
  const waitingRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    // The Open button just vanished: put focus on the news, inside the dialog.
    if (phase === 'waiting') waitingRef.current?.focus();
  }, [phase]);

  const open = async () => {
    if (phase !== 'consent') return;
    setPhase('opening');
    setOpenError(null);
    const result = await onOpenUrl();
    if (result.opened) setPhase('waiting');
    else {
      setPhase('consent');
      setOpenError(result.reason ?? '');
    }
  };

  /** The human says they opened the link some other way (told on, so that coming back keeps it). */
  const openedElsewhere = () => {
    setPhase('waiting');
    onOpenedElsewhere?.();
  };

  return { phase, openError, waitingRef, open, openedElsewhere };
}

/** useOpenLink for a URL question's dialog: its props say how to open the link and whether it is open already. */
export function useUrlDialogLink(props: UrlDialogExtras) {
  return useOpenLink(props.onOpenUrl, props.opened === true, props.onOpenedElsewhere);
}
