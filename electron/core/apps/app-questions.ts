// Which questions an MCP App drew (SEP-3118): the renderer says so once the
// app is up and holds the form, and unsays it when the native form takes over.
// The answer's history entry names the app (drawnByApp) only if it still drew
// the form when the person answered. Kept beside the question object, not on
// it: nothing a front end sends can set it but the host's own record call.
import type { Question } from '../../../shared/elicitation/types';

const drawn = new WeakMap<Question, string>();

/** The app (ui:// resource) drew `question`'s form in the host's dialog. */
export function markDrawn(question: Question, resourceUri: string): void {
  drawn.set(question, resourceUri);
}

/** The native form took over (the app failed or was closed before an answer). */
export function unmarkDrawn(question: Question): void {
  drawn.delete(question);
}

/** The app that drew `question`'s form, if one did. */
export function drawnBy(question: Question): string | undefined {
  return drawn.get(question);
}
