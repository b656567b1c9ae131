// The Tasks domain of the host API: the host's tasks, and cancelling one
// (from the Tasks view, or from one of its questions).
import type { HostParams } from '../../../../shared/host-api/contract';
import { HostError } from '../../host-error';
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Tasks handlers over `ctx`. */
export function taskHandlers(ctx: HandlerContext) {
  return {
    listTasks: async () => (await ctx.host.tasks.list()).map((r) => ctx.taskView(r)),
    cancelTask: async (p, place) => {
      const record = await ctx.host.tasks.cancel(p.taskId, cancelledBy(ctx, p, place));
      return ctx.taskView(record);
    },
  } satisfies Partial<HandlerTable>;
}

/**
 * Who cancels a task, for its questions' history: from a question's dialog
 * ("Cancel task"), only a question of that very task that still waits; from
 * the Tasks view, the human too, with no question of their own.
 */
function cancelledBy(
  ctx: HandlerContext,
  p: HostParams<'cancelTask'>,
  place?: string,
): { reason: string; questionId?: string } {
  const where = place ? ` (${place})` : '';
  if (p.questionId === undefined) return { reason: `the user cancelled the task in Countersign${where}` };
  const question = ctx.prompter.list().find((q) => q.id === p.questionId);
  if (!question || question.origin.task?.taskId !== p.taskId)
    throw new HostError(
      'invalid-answer',
      question
        ? `question ${p.questionId} is not a question of task ${p.taskId}; nothing was cancelled`
        : `question ${p.questionId} is not waiting any more (answered, withdrawn or unknown); nothing was cancelled`,
    );
  const short = p.taskId.length > 8 ? `${p.taskId.slice(0, 8)}…` : p.taskId;
  return {
    reason: `the user cancelled task ${short} from its question ("Cancel task")${where}`,
    questionId: p.questionId,
  };
}
