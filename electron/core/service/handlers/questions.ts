// The Questions domain of the host API: the queue of questions and sign-ins
// waiting for the human, their answers, and opening a question's link.
import type { HandlerContext, HandlerTable } from './handler-table';

/** The Questions handlers over `ctx`. */
export function questionHandlers(ctx: HandlerContext) {
  return {
    listQuestions: async () => ctx.prompter.list(),
    listSignIns: async () => ctx.prompter.listSignIns(),
    answerQuestion: async (p, place) => {
      ctx.prompter.answer(p.questionId, p.answer, place);
      return { accepted: true };
    },
    openQuestionUrl: (p) => ctx.prompter.openUrl(p.questionId),
  } satisfies Partial<HandlerTable>;
}
