import type { QuestionOrigin } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';
import QueueCounter from './QueueCounter';
import ServerBadge from './ServerBadge';
import TaskOriginLine from './TaskOriginLine';

/** Props of the header every question dialog starts with. */
export interface DialogHeaderProps {
  origin: QuestionOrigin;
  title: string;
  titleId: string;
  colour: number;
  waiting: number;
  busy: boolean;
  /** The close button: the cancel outcome. */
  onClose: () => void;
}

// Long argument summaries are cut here too: the host already keeps them short,
// but the dialog must stay readable whatever arrives.
const MAX_SUMMARY = 240;

/** Who asks (badge + name in the title), which call caused it, the round, the queue, and the close button. */
export default function DialogHeader({ origin, title, titleId, colour, waiting, busy, onClose }: DialogHeaderProps) {
  const t = useT();
  const summary = origin.argumentsSummary?.trim() ?? '';
  const shownSummary = summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary;
  return (
    <header className="dialog-header">
      <ServerBadge server={origin.server} colour={colour} />
      <div className="dialog-heading">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <p className="origin">
          {origin.method && origin.name ? (
            <>
              <span className="origin-kind">{t(`origin.${origin.method}`)}</span>{' '}
              <span className="origin-name">{origin.name}</span>
            </>
          ) : (
            <span className="origin-kind">{t('origin.noCall')}</span>
          )}
          {!origin.roundPosition && <span className="origin-round">{t('origin.round', { round: origin.round })}</span>}
        </p>
        {origin.roundPosition && (
          // One round, several questions: where this one stands, and what is still to come.
          <p className="origin-position" data-testid="round-position">
            <span className="origin-round">
              {t('origin.position', {
                index: origin.roundPosition.index,
                count: origin.roundPosition.count,
                server: origin.server,
                round: origin.round,
              })}
            </span>
            {origin.roundPosition.index < origin.roundPosition.count && (
              <span className="origin-to-come">
                {t('origin.toCome', {
                  keys: origin.roundPosition.keys.slice(origin.roundPosition.index).join(', '),
                })}
              </span>
            )}
          </p>
        )}
        {origin.lastRound && (
          // The human should know that asking again ends the call, before answering this round.
          <p className="origin-last-round" data-testid="last-round">
            {t('origin.lastRound')}
          </p>
        )}
        {origin.task && <TaskOriginLine task={origin.task} name={origin.name ?? origin.server} />}
        {origin.timeLimitMinutes !== undefined && (
          <p className="origin-limit">{t('origin.timeLimit', { minutes: origin.timeLimitMinutes })}</p>
        )}
        {origin.agent && (
          // Which agent's call this is (through the gateway): the human should know who wants this done.
          <p className="origin-agent" dir="auto">
            {t('origin.agent', { agent: origin.agent })}
          </p>
        )}
        {origin.reportedBy === 'gateway' && (
          // The app did not see this server or call itself: these labels are the gateway's word.
          <p className="origin-reported">{t('origin.reportedByGateway')}</p>
        )}
        {shownSummary && (
          <p className="origin-args" dir="auto">
            <span className="visually-hidden">{t('origin.arguments')}: </span>
            {shownSummary}
          </p>
        )}
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
