import { useCallback, useRef, useState } from 'react';
import { readAppProposal } from '../../../../shared/elicitation/app-form';
import type { AnswerContent, AnswerValue, FormQuestion } from '../../../../shared/elicitation/types';
import { useT } from '../../i18n/i18n-context';
import AnswerButton, { acceptLook } from '../AnswerButton';
import DeliberateButton from '../DeliberateButton';
import type { DialogProps } from '../dialog-props';
import QuestionShell from '../QuestionShell';
import { answerLabel } from '../round-labels';
import type { AppQuestions } from './app-question-context';
import AppQuestionFrame from './AppQuestionFrame';
import { fitsForm } from './fits-form';

/** Props: the dialog's own, the host's app calls, and how to hand over to the native form (with the reason). */
export type AppDrawnFormProps = DialogProps<FormQuestion> & {
  apps: AppQuestions;
  onFallback(reason: string): void;
};

function shown(value: AnswerValue): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * A form question drawn by the server's MCP App (SEP-3118, experimental). The dialog around it is the host's:
 * the header names the server, the tool, the agent and the round; the footer's Cancel, Decline and Accept are
 * the host's buttons. The app only proposes values: each proposal is checked against the question's schema and
 * shown here as text, outside the frame, and only Accept sends it (re-armed whenever the proposal changes, so a
 * click meant for an older one cannot send a newer one). A failure hands over to the native form.
 */
export default function AppDrawnForm({ apps, onFallback, ...props }: AppDrawnFormProps) {
  const { question, sending, onAnswer } = props;
  const t = useT();
  const [proposal, setProposal] = useState<{ content: AnswerContent; seq: number } | null>(null);
  const [suggestion, setSuggestion] = useState<'decline' | 'cancel' | null>(null);
  const appId = useRef<string | null>(null);
  const seq = useRef(0);

  const fallBack = useCallback(
    (reason: string) => {
      if (appId.current)
        void apps.api
          .recordAppEvent({ appId: appId.current, event: 'question-fallback', text: reason })
          .catch(() => undefined);
      onFallback(reason);
    },
    [apps.api, onFallback],
  );
  const onReply = (result: unknown) => {
    const read = readAppProposal(question.requestedSchema, result, fitsForm);
    if (read.kind === 'refused') return fallBack(read.reason);
    if (read.kind === 'suggests') {
      setProposal(null);
      setSuggestion(read.action);
      return;
    }
    setSuggestion(null);
    setProposal({ content: read.content, seq: ++seq.current });
  };
  const fields = Object.entries(question.requestedSchema.properties);

  return (
    <QuestionShell
      {...props}
      kind="form"
      status={proposal ? null : t('appQuestion.waiting')}
      actions={
        <>
          <AnswerButton answer={{ action: 'cancel' }} />
          <AnswerButton answer={{ action: 'decline' }} />
          <DeliberateButton
            key={proposal?.seq ?? 0}
            className={`button button-${acceptLook(question)}`}
            busy={sending || !proposal}
            onActivate={() => proposal && onAnswer({ action: 'accept', content: proposal.content })}
            data-testid="app-question-accept"
          >
            {answerLabel(question, t, 'confirm')}
          </DeliberateButton>
        </>
      }
    >
      <p className="banner banner-info app-question-note" role="note">
        <span className="pill pill-info">{t('appQuestion.badge')}</span>{' '}
        {t('appQuestion.note', { uri: question.appForm?.resourceUri ?? '' })}
      </p>
      <AppQuestionFrame
        question={question}
        api={apps.api}
        onDrawn={(id) => {
          appId.current = id;
          void apps.api.recordAppEvent({ appId: id, event: 'question-drawn', text: '' }).catch(() => undefined);
        }}
        onReply={onReply}
        onFail={fallBack}
      />
      <section className="app-proposal" aria-live="polite" data-testid="app-proposal">
        <h3 className="app-proposal-title">{t('appQuestion.proposalTitle')}</h3>
        {proposal ? (
          <dl className="app-proposal-values">
            {fields.map(([name, field]) =>
              proposal.content[name] === undefined ? null : (
                <div key={name} data-field={name}>
                  <dt>{field.title || name}</dt>
                  <dd className="mono">{shown(proposal.content[name])}</dd>
                </div>
              ),
            )}
          </dl>
        ) : (
          <p className="muted" data-testid="app-proposal-none">
            {suggestion ? t(`appQuestion.suggests.${suggestion}`) : t('appQuestion.none')}
          </p>
        )}
      </section>
    </QuestionShell>
  );
}
