import type { Answer, Question } from '../../../shared/elicitation/types';

/** What every question dialog is given. */
export interface DialogProps<Q extends Question = Question> {
  question: Q;
  /** The server's badge colour slot. */
  colour: number;
  /** How many questions wait behind this one. */
  waiting: number;
  /** True while this question's answer is on its way. */
  sending: boolean;
  /** Why the last attempt to send an answer failed, if it did. */
  sendError: string | null;
  /** Sends the human's answer: accept (with content for forms), decline or cancel. */
  onAnswer: (answer: Answer) => void;
  /** Within a round: back to the previous question, keeping every answer given (absent on the first). */
  onBack?: () => void;
  /** Within a round: how the questions after this one are named (their titles), in order. */
  toCome?: string[];
  /** The answer the human already gave this question earlier in the round (they came back to it). */
  draft?: Answer;
}

/** Extra props of the URL-consent dialog. */
export interface UrlDialogExtras {
  /** The human's consent: asks the host to open the link in the system browser. */
  onOpenUrl: () => Promise<{ opened: boolean; reason?: string }>;
  /** The human says they opened the link some other way (after the host could not open it). */
  onOpenedElsewhere?: () => void;
  /** The link was already opened: the human came back to this question within its round, so it starts waiting. */
  opened?: boolean;
}
