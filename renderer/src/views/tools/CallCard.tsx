import { useMemo } from 'react';
import { useT } from '../../i18n/i18n-context';
import type { UiCall } from '../../state/call-store';
import { completedOutcome, type Outcome } from './call-outcome';
import { describeResult } from './call-result';
import OutcomeNote from './OutcomeNote';
import ResultParts from './ResultParts';
import AppPanel, { type AppPanelProps } from './apps/AppPanel';

/** Props: one call and how to cancel it; `appApi` when the call's tool names an MCP App. */
export interface CallCardProps {
  call: UiCall;
  onCancel: () => void;
  appApi?: AppPanelProps['api'];
}

const ARGS_LINE_CHARS = 160;

function argsLine(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > ARGS_LINE_CHARS ? `${text.slice(0, ARGS_LINE_CHARS - 1)}…` : text;
}

/**
 * One call of a tool: while it runs, a note that its questions arrive as
 * dialogs and a Cancel button; when it ends, the result (text as text, the
 * rest as JSON), a tool error marked as such, or why it failed.
 */
export default function CallCard({ call, onCancel, appApi }: CallCardProps) {
  const t = useT();
  const described = useMemo(
    () => (call.state === 'complete' ? describeResult(call.result) : null),
    [call.state, call.result],
  );
  const time = new Date(call.startedAt).toLocaleTimeString();
  const outcome: Outcome =
    call.state === 'complete'
      ? completedOutcome(
          { state: 'complete', label: 'tools.state.complete' },
          described?.isError ?? false,
          call.lastAnswer,
        )
      : { state: call.state, label: `tools.state.${call.state}`, pill: PILLS[call.state] };
  const state = outcome.state;
  return (
    <li
      className={`call-card call-${state}`}
      data-call-state={state}
      aria-busy={call.state === 'running' || call.state === 'starting' || undefined}
    >
      <div className="call-head">
        <span className={`pill ${outcome.pill}`}>
          {(call.state === 'running' || call.state === 'starting') && (
            <span className="pill-spinner" aria-hidden="true" />
          )}
          {t(outcome.label)}
        </span>
        <span className="call-args mono">{argsLine(call.args)}</span>
        <span className="call-time">{time}</span>
      </div>
      {JSON.stringify(call.args).length > ARGS_LINE_CHARS && (
        // The line above is cut; the whole arguments are one click (or key) away, wrapped to the pane.
        <details className="call-args-all">
          <summary>{t('tools.allArguments')}</summary>
          <pre className="mono" tabIndex={0}>
            {JSON.stringify(call.args, null, 2)}
          </pre>
        </details>
      )}

      {call.state === 'running' && (
        <div className="call-running">
          <p className="muted">{call.cancelling ? t('tools.cancelling') : t('tools.runningHint')}</p>
          <button
            type="button"
            className="button button-small"
            onClick={onCancel}
            aria-disabled={call.cancelling || undefined}
          >
            {t('tools.cancel')}
          </button>
        </div>
      )}
      {call.state === 'error' && (
        <p className="banner banner-danger">{t('tools.failed', { error: call.error ?? '' })}</p>
      )}
      {call.state === 'cancelled' && <p className="muted">{t('tools.cancelled')}</p>}
      <OutcomeNote outcome={outcome} className="call-outcome-note" testId="call-outcome-note" />
      {described && <ResultParts described={described} testId="call-result" />}
      {appApi && call.state === 'complete' && call.callId && (
        <AppPanel
          api={appApi}
          server={call.server}
          tool={call.tool}
          callId={call.callId}
          args={call.args}
          result={call.result}
        />
      )}
    </li>
  );
}

/** Pills of the states before (or other than) completion; a completed call's comes from completedOutcome. */
const PILLS: Record<Exclude<UiCall['state'], 'complete'>, string> = {
  starting: 'pill-info',
  running: 'pill-info',
  error: 'pill-danger',
  cancelled: 'pill-neutral',
};
