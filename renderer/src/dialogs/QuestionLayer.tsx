import { useCallback, useMemo } from 'react';
import type { Answer } from '../../../shared/elicitation/types';
import { questionsWaiting, roundMembers, serverOf, shownQuestion, type QuestionQueue } from '../state/question-queue';
import type { ServerDirectory } from '../state/server-directory';
import { useStore } from '../state/use-store';
import QuestionDialog from './QuestionDialog';
import RemovalNotes from './RemovalNotes';
import { questionTitle } from './round-labels';
import SignInDialog from './SignInDialog';
import { colourOf } from './server-identity';
import { KnownServersContext } from './ServerBadge';
import { TaskCancelContext, type TaskCancel } from './task-cancel-context';

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
  const front = shownQuestion(state);
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
  const onOpenedElsewhere = useCallback(() => {
    if (frontId) queue.markOpened(frontId);
  }, [queue, frontId]);
  const position = front && front.mode !== 'sign-in' ? front.origin.roundPosition : undefined;
  const roundId = position?.roundId;
  const canGoBack = roundId !== undefined && (position?.index ?? 1) > 1;
  // The round's later questions by title; one not arrived yet goes by its key.
  const toCome = useMemo(() => {
    if (roundId === undefined || !position) return undefined;
    const members = roundMembers(state.questions, roundId);
    return position.keys.slice(position.index).map((key) => {
      const member = members.find((m) => m.origin.key === key);
      return member ? questionTitle(member) : key;
    });
  }, [roundId, position, state.questions]);
  const waiting = Math.max(0, questionsWaiting(state.questions, state.drafts) - 1);
  const onBack = useCallback(() => {
    if (frontId) queue.back(frontId);
  }, [queue, frontId]);
  const taskCancelBusy = state.sending !== null;
  const canCancelTask = frontId !== undefined && queue.canCancelTask(frontId);
  const taskCancel = useMemo<TaskCancel | null>(
    () => (canCancelTask && frontId ? { cancel: () => void queue.cancelTask(frontId), busy: taskCancelBusy } : null),
    [canCancelTask, frontId, queue, taskCancelBusy],
  );
  // A round is sent as a whole: its sending state and failures show on whichever of its questions is in view.
  const inView = (id: string | undefined) =>
    id !== undefined &&
    (id === front?.id ||
      (roundId !== undefined &&
        state.questions.some(
          (q) => q.id === id && q.mode !== 'sign-in' && q.origin.roundPosition?.roundId === roundId,
        )));

  return (
    <>
      {front && (
        <KnownServersContext.Provider value={known}>
          {front.mode === 'sign-in' ? (
            <SignInDialog
              key={front.id}
              question={front}
              colour={colourOf(front.server, known)}
              waiting={waiting}
              sending={state.sending === front.id}
              sendError={state.sendError?.questionId === front.id ? state.sendError.message : null}
              onAnswer={onAnswer}
              onOpenUrl={onOpenUrl}
            />
          ) : (
            <TaskCancelContext.Provider value={taskCancel}>
              <QuestionDialog
                key={front.id}
                question={front}
                colour={colourOf(front.origin.server, known)}
                waiting={waiting}
                sending={inView(state.sending ?? undefined)}
                sendError={state.sendError && inView(state.sendError.questionId) ? state.sendError.message : null}
                onAnswer={onAnswer}
                onOpenUrl={onOpenUrl}
                onOpenedElsewhere={onOpenedElsewhere}
                opened={state.opened[front.id] === true}
                {...(canGoBack ? { onBack } : {})}
                {...(toCome ? { toCome } : {})}
                {...(state.drafts[front.id] ? { draft: state.drafts[front.id] } : {})}
              />
            </TaskCancelContext.Provider>
          )}
        </KnownServersContext.Provider>
      )}
      <RemovalNotes notes={state.notes} onDismiss={onDismiss} autoDismissMs={autoDismissNotesMs} />
    </>
  );
}
