import { useT } from '../../i18n/i18n-context';
import type { Outcome } from './call-outcome';

/**
 * The note under a finished call's or task's pill: who answered what, and
 * that the reply below is the server's answer to it (call-outcome.ts).
 * Nothing when the outcome needs no note.
 */
export default function OutcomeNote({
  outcome,
  className,
  testId,
}: {
  outcome: Outcome;
  className: string;
  testId: string;
}) {
  const t = useT();
  if (!outcome.note) return null;
  return (
    <p className={`${className} muted`} data-testid={testId}>
      {t(outcome.note, outcome.reason ? { reason: t(outcome.reason) } : {})}
    </p>
  );
}
