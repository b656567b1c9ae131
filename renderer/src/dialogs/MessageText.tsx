import { useRef } from 'react';
import { useT } from '../i18n/i18n-context';
import { useScrollFocus } from './use-scroll-focus';

/** Props: the server's message and the id the dialog's aria-describedby points at. */
export interface MessageTextProps {
  id: string;
  message: string;
}

/**
 * The server's message, exactly as text: React escapes it, nothing parses it
 * as HTML or markdown, and nothing turns URLs in it into links. `dir="auto"`
 * isolates right-to-left text so it cannot reorder the UI around it.
 */
export default function MessageText({ id, message }: MessageTextProps) {
  const t = useT();
  const ref = useRef<HTMLParagraphElement>(null);
  const tabIndex = useScrollFocus(ref);
  const text = message.trim();
  return (
    <div className="message">
      <p className="message-label">{t('dialog.messageLabel')}</p>
      <p
        ref={ref}
        id={id}
        className={text ? 'message-text' : 'message-text message-empty'}
        dir="auto"
        tabIndex={tabIndex}
      >
        {text || t('dialog.noMessage')}
      </p>
    </div>
  );
}
