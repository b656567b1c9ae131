import { createContext, useContext } from 'react';

/**
 * "Cancel task" for the question in front, when it belongs to a task the app
 * follows: the dialog layer provides it, the task line in the dialog's header
 * shows the button. Given through context so the three dialog kinds need no
 * extra prop. Absent: no button (an ordinary call, or a question a gateway
 * relays, whose task is the gateway's, not the app's).
 */
export interface TaskCancel {
  /** Cancels the task the question belongs to (tasks/cancel); its question goes with it. */
  cancel: () => void;
  /** True while an answer or the cancel is on its way. */
  busy: boolean;
}

export const TaskCancelContext = createContext<TaskCancel | null>(null);

/** The task cancel for the dialog in front, or null. */
export function useTaskCancel(): TaskCancel | null {
  return useContext(TaskCancelContext);
}
