import type { ReactNode } from 'react';
import { useLanguage, useT } from '../../i18n/i18n-context';
import type { HistoryItem, QuestionItem } from '../../../../shared/history/items';
import {
  callEndKey,
  decidedByKey,
  formatTime,
  otherSummary,
  outcomeBadge,
  reportedByGateway,
  serverOf,
} from './history-format';
import QuestionRecord from './QuestionRecord';

/** Props: the item to show (none: a hint) and a badge colour per server. */
export interface HistoryDetailProps {
  item: HistoryItem | null;
  colourOf: (server: string) => number;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="facts-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The detail pane: the question as it was shown and what became of it, or any other journal entry. */
export default function HistoryDetail({ item, colourOf }: HistoryDetailProps) {
  const t = useT();
  if (!item) {
    return (
      <div className="history-detail empty-detail">
        <p className="empty-title">{t('history.detail.none')}</p>
        <p className="empty-hint">{t('history.detail.noneHint')}</p>
      </div>
    );
  }
  return (
    // It scrolls on its own, so it takes focus for keyboard scrolling (axe: scrollable-region-focusable).
    <div
      className="history-detail"
      data-seq={item.seq}
      tabIndex={0}
      role="region"
      aria-label={t('history.detail.region')}
    >
      {item.kind === 'question' ? (
        <>
          {/* What became of it first: the question below can be long. */}
          <AnswerFacts item={item} />
          <QuestionRecord item={item} colour={colourOf(item.question.server.name)} />
        </>
      ) : (
        <OtherFacts item={item} />
      )}
    </div>
  );
}

function AnswerFacts({ item }: { item: QuestionItem }) {
  const t = useT();
  const language = useLanguage();
  const a = item.answer;
  const badge = outcomeBadge(item);
  const end = item.callEnd;
  return (
    <section className="facts" aria-label={t('history.detail.answer')}>
      <h3 className="facts-title">{t('history.detail.answer')}</h3>
      <dl>
        <Row label={t('history.detail.outcome')}>
          <span className={`pill pill-${badge.tone}`}>{t(badge.key)}</span>
        </Row>
        <Row label={t('history.detail.asked')}>{formatTime(item.question.ts, language)}</Row>
        {a && (
          <>
            <Row label={t('history.detail.decidedBy')}>
              {t(decidedByKey(a.decidedBy))}
              {a.decidedByDetail && <span className="muted"> ({a.decidedByDetail})</span>}
            </Row>
            <Row label={t('history.detail.answered')}>{formatTime(a.ts, language)}</Row>
          </>
        )}
        {item.question.mode === 'url' && a && (
          <Row label={t('history.detail.linkOpened')}>{a.urlOpened ? t('history.yes') : t('history.no')}</Row>
        )}
        {a?.action === 'accept' && item.question.mode === 'form' && (
          <Row label={t('history.detail.content')}>
            {a.redacted ? (
              <span>
                {t('history.detail.redacted')}
                {a.redacted.fields.length > 0 && (
                  <>
                    {' '}
                    {t('history.detail.redactedFields')} <span className="mono">{a.redacted.fields.join(', ')}</span>
                  </>
                )}
              </span>
            ) : a.content && Object.keys(a.content).length > 0 ? (
              <ul className="content-list">
                {Object.entries(a.content).map(([k, v]) => (
                  <li key={k}>
                    <span className="mono">{k}</span>:{' '}
                    <span className="content-value">{Array.isArray(v) ? v.join(', ') : String(v)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              t('history.detail.noContent')
            )}
          </Row>
        )}
        <Row label={t('history.detail.call')}>
          {end ? (
            <>
              {t(callEndKey(end))}
              {/* Rounds are a modern call's retries; a legacy call asks inside its one request: none to count. */}
              {end.rounds !== undefined && item.question.server.era !== 'legacy' && (
                <span className="muted"> · {t('history.detail.rounds', { count: end.rounds })}</span>
              )}
              {end.detail && <span className="facts-detail">{end.detail}</span>}
            </>
          ) : (
            <span className="muted">{t('history.callEnd.unknown')}</span>
          )}
        </Row>
        {item.question.call.agent && (
          // Which agent's call asked (through the gateway): what it says it is, then its connection.
          <Row label={t('history.detail.agent')}>
            <span dir="auto">{item.question.call.agent}</span>
          </Row>
        )}
        <Row label={t('history.detail.protocol')}>
          <span className="mono">{item.question.server.protocolVersion ?? '—'}</span>
        </Row>
      </dl>
    </section>
  );
}

function OtherFacts({ item }: { item: Exclude<HistoryItem, QuestionItem> }) {
  const t = useT();
  const language = useLanguage();
  const badge = outcomeBadge(item);
  const server = serverOf(item);
  return (
    <section className="facts" aria-label={t(badge.key)}>
      <h3 className="facts-title">
        <span className={`pill pill-${badge.tone}`}>{t(badge.key)}</span>
      </h3>
      <dl>
        <Row label={t('history.detail.time')}>{formatTime(item.ts, language)}</Row>
        {server && <Row label={t('history.detail.server')}>{server}</Row>}
        {reportedByGateway(item) && (
          // The app did not see this call: what it says about it is the gateway's word.
          <Row label={t('history.detail.reportedBy')}>
            <span className="origin-reported">{t('origin.reportedByGateway')}</span>
          </Row>
        )}
        <Row label={t('history.detail.what')}>
          <span className="facts-detail">{otherSummary(item)}</span>
        </Row>
      </dl>
    </section>
  );
}
