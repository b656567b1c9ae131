import { useCallback, useMemo } from 'react';
import type { Answer } from '../../../shared/elicitation/types';
import { questionsWaiting, serverOf, type QuestionQueue } from '../state/question-queue';
import type { ServerDirectory } from '../state/server-directory';
import { useStore } from '../state/use-store';
import QuestionDialog from './QuestionDialog';
import RemovalNotes from './RemovalNotes';
import SignInDialog from './SignInDialog';
import { colourOf } from './server-identity';
import { KnownServersContext } from './ServerBadge';

/** Props: the queue to show and the directory that decides badge colours. */
export interface QuestionLayerProps {
  queue: QuestionQueue;
  directory: ServerDirectory;
  autoDismissNotesMs?: number;
}

/** The question in front as a modal dialog (keyed by id, so each question starts fresh), plus removal notes. */
export default function QuestionLayer({ queue, directory, autoDismissNotesMs }: QuestionLayerProps) {
  const state = useStore(queue);
  const { names } = useStore(directory);
  const front = state.questions[0];
  const known = useMemo(() => [...names, ...state.questions.map(serverOf)], [names, state.questions]);
  const onDismiss = useCallback((id: string) => queue.dismissNote(id), [queue]);

  const frontId = front?.id;
  const onAnswer = useCallback(
    (answer: Answer) => {
      if (frontId) void queue.answer(frontId, answer);
    },
    [queue, frontId],
  );
  const onOpenUrl = useCallback(
    () => (frontId ? queue.openUrl(frontId) : Promise.resolve({ opened: false })),
    [queue, frontId],
  );

  return (
    <>
      {front && (
        <KnownServersContext.Provider value={known}>
          {front.mode === 'sign-in' ? (
            <SignInDialog
              key={front.id}
              question={front}
              colour={colourOf(front.server, known)}
              waiting={questionsWaiting(state.questions) - 1}
              sending={state.sending === front.id}
              sendError={state.sendError?.questionId === front.id ? state.sendError.message : null}
              onAnswer={onAnswer}
              onOpenUrl={onOpenUrl}
            />
          ) : (
            <QuestionDialog
              key={front.id}
              question={front}
              colour={colourOf(front.origin.server, known)}
              waiting={questionsWaiting(state.questions) - 1}
              sending={state.sending === front.id}
              sendError={state.sendError?.questionId === front.id ? state.sendError.message : null}
              onAnswer={onAnswer}
              onOpenUrl={onOpenUrl}
            />
          )}
        </KnownServersContext.Provider>
      )}
      <RemovalNotes notes={state.notes} onDismiss={onDismiss} autoDismissMs={autoDismissNotesMs} />
    </>
  );
}
