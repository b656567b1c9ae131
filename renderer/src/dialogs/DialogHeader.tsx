import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';
import QueueCounter from './QueueCounter';
import ServerBadge from './ServerBadge';

/** Props of the header every dialog that asks the human starts with. */
export interface DialogHeaderProps {
  /** The server that asks (its badge). */
  server: string;
  title: string;
  titleId: string;
  colour: number;
  waiting: number;
  busy: boolean;
  /** The close button: the cancel outcome. */
  onClose: () => void;
  /** The slot under the title: where the question comes from (QuestionOriginLines, SignInOriginLines). */
  origin: ReactNode;
}

/** Who asks (badge + name in the title), where it comes from, the queue, and the close button. */
export default function DialogHeader({
  server,
  title,
  titleId,
  colour,
  waiting,
  busy,
  onClose,
  origin,
}: DialogHeaderProps) {
  const t = useT();
  return (
    <header className="dialog-header">
      <ServerBadge server={server} colour={colour} />
      <div className="dialog-heading">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {origin}
      </div>
      <div className="dialog-header-side">
        <QueueCounter waiting={waiting} />
        <DeliberateButton
          className="icon-button"
          aria-label={t('dialog.close')}
          title={t('dialog.close')}
          busy={busy}
          onActivate={onClose}
        >
          <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
            <path d="M2 2 L12 12 M12 2 L2 12" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
        </DeliberateButton>
      </div>
    </header>
  );
}
