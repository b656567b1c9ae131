// The lines under a dialog's title that say where the question comes from:
// the call, the round, the task, the agent. A server's question and a
// sign-in word their call differently; the gateway lines are the same.
import type { SignInQuestion } from '../../../shared/auth/types';
import type { QuestionOrigin } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import TaskOriginLine from './TaskOriginLine';

// Long argument summaries are cut here too: the host already keeps them short,
// but the dialog must stay readable whatever arrives.
const MAX_SUMMARY = 240;

/** Which agent's call this is, and whether the gateway (not the app) reported it. */
function GatewayLines({ agent, reportedBy }: { agent: string | undefined; reportedBy: 'gateway' | undefined }) {
  const t = useT();
  return (
    <>
      {agent && (
        // Which agent's call this is (through the gateway): the human should know who wants this done.
        <p className="origin-agent" dir="auto">
          {t('origin.agent', { agent })}
        </p>
      )}
      {reportedBy === 'gateway' && (
        // The app did not see this server or call itself: these labels are the gateway's word.
        <p className="origin-reported">{t('origin.reportedByGateway')}</p>
      )}
    </>
  );
}

/** A server's question: which call caused it, the round (and where it stands in it), task, time limit, agent. */
export function QuestionOriginLines({ origin, toCome }: { origin: QuestionOrigin; toCome?: string[] | undefined }) {
  const t = useT();
  const summary = origin.argumentsSummary?.trim() ?? '';
  const shownSummary = summary.length > MAX_SUMMARY ? `${summary.slice(0, MAX_SUMMARY - 1)}…` : summary;
  return (
    <>
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
                titles: (toCome ?? origin.roundPosition.keys.slice(origin.roundPosition.index)).join('; '),
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
      {origin.toolHints?.destructive && (
        // Before deciding, the human should see what the server says the tool does.
        <p className="origin-hint origin-destructive" data-testid="tool-destructive">
          {t('origin.destructive')}
        </p>
      )}
      {origin.toolHints?.readOnly && (
        <p className="origin-hint origin-read-only" data-testid="tool-read-only">
          {t('origin.readOnly')}
        </p>
      )}
      {origin.app && (
        // The person should know the server's own UI asks, and that saying yes only opens the link.
        <p className="origin-app" data-testid="origin-app">
          {t('origin.app', { resource: origin.app.resourceUri })}
        </p>
      )}
      {origin.task && <TaskOriginLine task={origin.task} name={origin.name ?? origin.server} />}
      {origin.timeLimitMinutes !== undefined && (
        <p className="origin-limit">{t('origin.timeLimit', { minutes: origin.timeLimitMinutes })}</p>
      )}
      <GatewayLines agent={origin.agent} reportedBy={origin.reportedBy} />
      {shownSummary && (
        <p className="origin-args" dir="auto">
          <span className="visually-hidden">{t('origin.arguments')}: </span>
          {shownSummary}
        </p>
      )}
    </>
  );
}

/** A sign-in: the call that needs it, or who started it (the human, or a gateway's agent). */
export function SignInOriginLines({ question }: { question: SignInQuestion }) {
  const t = useT();
  const { call } = question;
  return (
    <>
      <p className="origin">
        {call ? (
          <>
            <span className="origin-kind">
              {call.method === 'tools/call' || call.method === 'prompts/get' || call.method === 'resources/read'
                ? t(`origin.${call.method}`)
                : t('signIn.forCall')}
            </span>{' '}
            <span className="origin-name">{call.name}</span>
          </>
        ) : (
          // With no call, the human started it (Servers view, Tools view), unless a gateway's agent did.
          <span className="origin-kind">
            {t(question.reportedBy === 'gateway' ? 'signIn.fromGateway' : 'signIn.fromServers')}
          </span>
        )}
      </p>
      <GatewayLines agent={call?.agent} reportedBy={question.reportedBy} />
    </>
  );
}
