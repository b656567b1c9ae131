import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';

/** Props: the action buttons, and what to say beside them. */
export interface DialogFooterProps {
  children: ReactNode;
  sending: boolean;
  sendError: string | null;
  /** A status of the dialog's own (e.g. "correct 2 fields"); replaces the Esc hint. */
  status?: string | null;
  /** Within a round: back to the previous question. Answers nothing, so it needs no arming delay. */
  onBack?: () => void;
  /** A control beside the status that is not an answer (e.g. "Cancel task"). */
  aside?: ReactNode;
}

/** The bottom bar: a status line (sending, failure, hint) and the buttons, primary last. */
export default function DialogFooter({ children, sending, sendError, status, onBack, aside }: DialogFooterProps) {
  const t = useT();
  return (
    <footer className="dialog-footer">
      <div className="footer-status">
        {sendError ? (
          <p role="alert" className="status-error">
            {t('dialog.sendFailed', { error: sendError })}
          </p>
        ) : (
          <p role="status" className={status ? 'status-note' : 'status-hint'}>
            {sending ? t('dialog.sending') : (status ?? t('dialog.escHint'))}
          </p>
        )}
        {aside}
      </div>
      <div className="actions">
        {onBack && (
          <button type="button" className="button button-back" disabled={sending} onClick={onBack}>
            {t('action.back')}
          </button>
        )}
        {children}
      </div>
    </footer>
  );
}
