import { createContext, useContext, type ReactNode } from 'react';
import type { Answer, Question } from '../../../shared/elicitation/types';
import { useT } from '../i18n/i18n-context';
import DeliberateButton from './DeliberateButton';

/** What an answer button needs from its dialog: how to send, and whether an answer is on its way. */
export interface AnswerSink {
  sending: boolean;
  onAnswer: (answer: Answer) => void;
}

/** Provided by DialogShell to the buttons in its footer. */
export const AnswerSinkContext = createContext<AnswerSink | null>(null);

/** Props: the answer the button sends, its look, and its label (Decline and Cancel have theirs). */
export interface AnswerButtonProps {
  answer: Answer;
  look?: 'plain' | 'primary' | 'danger';
  children?: ReactNode;
}

const LOOK = { plain: 'button', primary: 'button button-primary', danger: 'button button-danger' } as const;

/** The look of the button that says yes: the danger accent when the server marks the tool destructive. */
export function acceptLook(question: Question): 'primary' | 'danger' {
  return question.origin.toolHints?.destructive ? 'danger' : 'primary';
}

/**
 * A footer button that sends one answer, deliberately (see DeliberateButton):
 * busy while any answer of the dialog is on its way.
 */
export default function AnswerButton({ answer, look = 'plain', children }: AnswerButtonProps) {
  const t = useT();
  const sink = useContext(AnswerSinkContext);
  if (!sink) throw new Error('AnswerButton is drawn inside a DialogShell');
  const label = children ?? t(answer.action === 'accept' ? 'action.accept' : `action.${answer.action}`);
  return (
    <DeliberateButton className={LOOK[look]} busy={sink.sending} onActivate={() => sink.onAnswer(answer)}>
      {label}
    </DeliberateButton>
  );
}
