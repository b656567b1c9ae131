// How long something has been running, in words short enough for a dialog
// line or a table cell ("3 min", "2 h 5 min"). Pure, so the Tasks view, the
// dialog header and tests share it.
import type { Translate } from './translate';

/** `ms` of running time as the UI says it; a negative or unknown time reads as under a minute. */
export function formatAge(ms: number, t: Translate): string {
  const minutes = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 60_000) : 0;
  if (minutes < 1) return t('age.underMinute');
  if (minutes < 60) return t('age.minutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('age.hours', { hours, minutes: minutes % 60 });
  return t('age.days', { days: Math.floor(hours / 24), hours: hours % 24 });
}

/** The short form of a task id the UI shows: its first characters and an ellipsis. */
export function shortTaskId(taskId: string): string {
  return taskId.length > 6 ? `${taskId.slice(0, 6)}…` : taskId;
}
