import { useEffect, useRef } from 'react';
import { useT } from '../i18n/i18n-context';
import type { RemovalNote } from '../state/question-queue';

/** Props: the notes to show, and how to dismiss one. */
export interface RemovalNotesProps {
  notes: readonly RemovalNote[];
  onDismiss: (noteId: string) => void;
  /** Notes fade after this long; 0 keeps them until dismissed. */
  autoDismissMs?: number;
}

/** "The question from X was withdrawn …": a polite live region at the bottom of the window. */
export default function RemovalNotes({ notes, onDismiss, autoDismissMs = 15_000 }: RemovalNotesProps) {
  const t = useT();
  // One timer per note, started when the note first shows: a new note must not restart older ones.
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    if (autoDismissMs <= 0) return;
    for (const n of notes) {
      if (!timers.current.has(n.id))
        timers.current.set(
          n.id,
          setTimeout(() => onDismiss(n.id), autoDismissMs),
        );
    }
  }, [notes, onDismiss, autoDismissMs]);
  useEffect(() => {
    const map = timers.current;
    return () => map.forEach(clearTimeout);
  }, []);

  return (
    <div className="notes" role="status" aria-live="polite">
      {notes.map((n) => (
        <div key={n.id} className="note" data-reason={n.reason}>
          <p>
            {t(`note.${n.reason}`, { server: n.server })}
            {n.detail && <span className="note-detail"> {n.detail}</span>}
          </p>
          <button type="button" className="button button-small" onClick={() => onDismiss(n.id)}>
            {t('action.dismiss')}
          </button>
        </div>
      ))}
    </div>
  );
}
