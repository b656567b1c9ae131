import { useRef, useState } from 'react';
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
 * A message longer than its box says that more follows and can be shown whole:
 * nobody should decide on a message whose end they did not see.
 */
export default function MessageText({ id, message }: MessageTextProps) {
  const t = useT();
  const ref = useRef<HTMLParagraphElement>(null);
  const tabIndex = useScrollFocus(ref);
  const [expanded, setExpanded] = useState(false);
  const text = message.trim();
  const cut = tabIndex === 0 && !expanded;
  const classes = [
    'message-text',
    text ? '' : 'message-empty',
    cut ? 'message-cut' : '',
    expanded ? 'message-whole' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="message">
      <p className="message-label">{t('dialog.messageLabel')}</p>
      <p ref={ref} id={id} className={classes} dir="auto" tabIndex={tabIndex}>
        {text || t('dialog.noMessage')}
      </p>
      {(cut || expanded) && (
        <button
          type="button"
          className="button button-small button-link message-toggle"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? t('dialog.messageLess') : t('dialog.messageMore', { count: text.length })}
        </button>
      )}
    </div>
  );
}
