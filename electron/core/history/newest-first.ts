// Items from entries read newest first (tail-reader.ts), the same items
// buildItems (query.ts) makes reading oldest first, without holding the journal.
//
// Reading backwards, a question comes after its answer and its call's end, so a
// question item is complete the moment its question is read. What cannot be
// known at once is whether an answer or call end is a row of its own (its
// question is not in the history) or folds into a question further back. Such an
// entry waits, and holds back the older items behind it, until its question is
// read. Bounds, so a damaged journal cannot make a reader scan everything:
// - a call end says how many questions its call asked (`questions`, written by
//   JournalHistory); 0 is a row at once, and it stops waiting once it has found them;
// - an answer names its question's seq (`questionSeq`, written by JournalHistory), so it
//   stops waiting once the read has passed that seq;
// - a call end from before that field (older journals) waits LEGACY_CALL_LOOKBACK
//   entries, then counts as a call that asked nothing;
// - nothing waits longer than LINK_LOOKBACK entries; a question found after that
//   shows without the answer or call end already shown as a row of its own.

import type { HistoryItem, OtherItem, QuestionItem } from './query';
import type { AnswerEntry, CallEndEntry, JournalEntry } from './types';

/** How many entries back an answer or call end looks for its question. */
export const LINK_LOOKBACK = 100_000;
/** How many entries back a call end without a question count looks for its call's questions. */
export const LEGACY_CALL_LOOKBACK = 5_000;

interface Slot {
  /** The row this slot stands for; dropped when it folds into a question. */
  item: HistoryItem | undefined;
  /** False while it may still fold into a question not read yet. */
  decided: boolean;
  /** Entries read before this one. */
  readAt: number;
  pending?: PendingAnswer | PendingCallEnd;
}

interface PendingAnswer {
  kind: 'answer';
  entry: AnswerEntry;
  slot: Slot;
}

interface PendingCallEnd {
  kind: 'call-end';
  entry: CallEndEntry;
  slot: Slot;
  /** Questions of the call not found yet (Infinity: unknown, an older journal). */
  remaining: number;
}

const other = (entry: OtherItem['entry']): OtherItem => ({ kind: 'other', seq: entry.seq, ts: entry.ts, entry });

/** Feed entries newest first with push(); take() hands out items newest first as soon as they are final. */
export class NewestFirstItems {
  private queue: Slot[] = [];
  private head = 0;
  private readonly answers = new Map<string, PendingAnswer[]>();
  private readonly calls = new Map<string, PendingCallEnd[]>();
  private read = 0;
  /** The seq of the entry pushed last (the oldest read so far). */
  private lastSeq = Infinity;

  constructor(
    private readonly lookback = LINK_LOOKBACK,
    private readonly legacyCallLookback = LEGACY_CALL_LOOKBACK,
  ) {}

  /** Entries pushed so far. */
  get entriesRead(): number {
    return this.read;
  }

  /** The next older entry (lower seq than every entry pushed before). */
  push(e: JournalEntry): void {
    const readAt = this.read++;
    this.lastSeq = e.seq;
    switch (e.kind) {
      case 'question': {
        const item: QuestionItem = { kind: 'question', seq: e.seq, ts: e.ts, question: e };
        this.attachAnswer(item);
        if (e.callId !== undefined) this.attachCallEnd(item, e.callId);
        this.queue.push({ item, decided: true, readAt });
        break;
      }
      case 'answer': {
        const slot: Slot = { item: other(e), decided: false, readAt };
        const pending: PendingAnswer = { kind: 'answer', entry: e, slot };
        slot.pending = pending;
        const list = this.answers.get(e.questionId);
        if (list) list.push(pending);
        else this.answers.set(e.questionId, [pending]);
        this.queue.push(slot);
        break;
      }
      case 'call-end': {
        const slot: Slot = { item: other(e), decided: e.questions === 0, readAt };
        this.queue.push(slot);
        if (slot.decided) break;
        const pending: PendingCallEnd = { kind: 'call-end', entry: e, slot, remaining: e.questions ?? Infinity };
        slot.pending = pending;
        const list = this.calls.get(e.callId);
        if (list) list.push(pending);
        else this.calls.set(e.callId, [pending]);
        break;
      }
      default:
        // Faults, notes, and kinds a newer version may add: rows of their own.
        this.queue.push({ item: other(e), decided: true, readAt });
    }
    if (readAt % 8192 === 8191) this.prune();
  }

  /** There are no older entries: whatever still waits for its question is a row of its own. */
  end(): void {
    for (let i = this.head; i < this.queue.length; i++) this.queue[i]!.decided = true;
    this.answers.clear();
    this.calls.clear();
  }

  /** The next item, newest first, or undefined until more entries are pushed (or end() is called). */
  take(): HistoryItem | undefined {
    while (this.head < this.queue.length) {
      const slot = this.queue[this.head]!;
      if (!slot.decided && !this.expire(slot)) return undefined;
      this.head++;
      if (this.head >= 4096 && this.head * 2 >= this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      if (slot.item) return slot.item;
    }
    return undefined;
  }

  /** A question read: the earliest answer after it is its answer; later ones stay rows (as buildItems). */
  private attachAnswer(item: QuestionItem): void {
    const list = this.answers.get(item.question.questionId);
    if (!list) return;
    this.answers.delete(item.question.questionId);
    const earliest = list.pop()!;
    item.answer = earliest.entry;
    earliest.slot.item = undefined;
    earliest.slot.decided = true;
    for (const p of list) p.slot.decided = true;
  }

  /** The earliest call end after the question is its call's end; none of them is a row any more. */
  private attachCallEnd(item: QuestionItem, callId: string): void {
    const list = this.calls.get(callId);
    if (!list) return;
    const earliest = list[list.length - 1]!;
    item.callEnd = earliest.entry;
    earliest.remaining--;
    for (const p of list) {
      p.slot.item = undefined;
      p.slot.decided = true;
    }
    if (earliest.remaining <= 0) list.pop();
    if (list.length === 0) this.calls.delete(callId);
  }

  /** Whether a waiting slot has waited long enough to be a row of its own (and if so, makes it one). */
  private expire(slot: Slot): boolean {
    const p = slot.pending!;
    // The read got to where its question was and did not find it there: a row of its own.
    const passed = p.kind === 'answer' && p.entry.questionSeq !== undefined && p.entry.questionSeq >= this.lastSeq;
    const limit = p.kind === 'call-end' && p.remaining === Infinity ? this.legacyCallLookback : this.lookback;
    if (!passed && this.read - slot.readAt <= limit) return false;
    slot.decided = true;
    this.forget(p);
    return true;
  }

  private forget(p: PendingAnswer | PendingCallEnd): void {
    const map: Map<string, Array<PendingAnswer | PendingCallEnd>> = p.kind === 'answer' ? this.answers : this.calls;
    const key = p.kind === 'answer' ? p.entry.questionId : p.entry.callId;
    const list = map.get(key);
    if (!list) return;
    const rest = list.filter((x) => x !== p);
    if (rest.length > 0) map.set(key, rest);
    else map.delete(key);
  }

  /** Drops call ends that already folded but still waited for more questions, once past the look-back. */
  private prune(): void {
    for (const [callId, list] of this.calls) {
      const rest = list.filter((p) => !p.slot.decided || this.read - p.slot.readAt <= this.lookback);
      if (rest.length === 0) this.calls.delete(callId);
      else if (rest.length !== list.length) this.calls.set(callId, rest);
    }
  }
}
