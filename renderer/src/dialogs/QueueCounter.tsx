import { useT } from '../i18n/i18n-context';
import { plural } from '../i18n/translate';

/** Props: how many questions wait behind the one in front. */
export interface QueueCounterProps {
  waiting: number;
}

/** "2 more waiting" (read out in full: "2 more questions waiting"), or nothing when this is the only one. */
export default function QueueCounter({ waiting }: QueueCounterProps) {
  const t = useT();
  if (waiting <= 0) return null;
  const full = plural(t, 'queue.waiting', waiting);
  return (
    <span className="queue-counter" data-testid="queue-counter" title={full}>
      <span aria-hidden="true">{plural(t, 'queue.waitingShort', waiting)}</span>
      <span className="visually-hidden">{full}</span>
    </span>
  );
}
