// The questions waiting for the human, fed by the HostApi. Pure TypeScript
// (no React, no DOM) so its rules are tested directly:
// - arrival order; the first question is the one in front,
// - a question id is shown once and answered at most once, even if the host
//   repeats an event or the user clicks twice,
// - a question the host withdraws (call cancelled, server gone, timeout)
//   leaves with a note the UI shows until dismissed,
// - sign-ins wait in the same queue, in the same arrival order, one dialog
//   at a time with everything else,
// - a round the host puts all at once (roundPosition.roundId) is shown one
//   question at a time with a way back; its answers stay here as drafts and
//   are sent together once the last one is answered.
import type { Answer, Question } from '../../../shared/elicitation/types';
import type { SignInQuestion } from '../../../shared/auth/types';
import type { HostApi, HostEvents } from '../../../shared/host-api/contract';
import { errorText, Store } from './store';

/** What waits for the human: a server's question or a sign-in. */
export type QueuedQuestion = Question | SignInQuestion;

/** The server a queued question comes from. */
export function serverOf(q: QueuedQuestion): string {
  return q.mode === 'sign-in' ? q.server : q.origin.server;
}

/** Why the host took a question away. */
export type RemovalReason = HostEvents['questionRemoved']['reason'];

/** A note telling the human that a question went away without their answer. */
export interface RemovalNote {
  /** Unique per note (a question id can only be withdrawn once, but keep notes independent). */
  id: string;
  questionId: string;
  server: string;
  reason: Exclude<RemovalReason, 'answered'> | 'answered';
  /** Extra plain text from the host, if any. */
  detail?: string;
}

/** What the UI draws. Immutable: every change makes a new object. */
export interface QueueState {
  /** Waiting questions in arrival order; `questions[0]` is in front. */
  readonly questions: readonly QueuedQuestion[];
  /** Id of the question whose answer is on its way, if any. */
  readonly sending: string | null;
  /** The last failure to send an answer, shown on that question's dialog. */
  readonly sendError: { questionId: string; message: string } | null;
  readonly notes: readonly RemovalNote[];
  /** Answers given within a round that is not finished yet, by question id: nothing is sent until it is. */
  readonly drafts: Readonly<Record<string, Answer>>;
  /** Per round id: the position (1-based roundPosition.index) the human went back to, if they did. */
  readonly steps: Readonly<Record<string, number>>;
  /**
   * Ids of link questions whose link the human already opened (or said they
   * opened some other way): coming back to one within its round shows it as
   * opened, not as asking for consent again.
   */
  readonly opened: Readonly<Record<string, true>>;
  /** False until the first `listQuestions` finished (or failed). */
  readonly loaded: boolean;
  /** Set when the host could not be reached at start. */
  readonly loadError: string | null;
}

/** The part of the HostApi the queue needs. */
export type QueueHostApi = Pick<HostApi, 'listQuestions' | 'answerQuestion' | 'openQuestionUrl' | 'on'> &
  Partial<Pick<HostApi, 'listSignIns' | 'cancelTask'>>;

const initialState: QueueState = {
  questions: [],
  sending: null,
  sendError: null,
  notes: [],
  drafts: {},
  steps: {},
  opened: {},
  loaded: false,
  loadError: null,
};

/** An event-emitting store of waiting questions; views subscribe, dialogs call `answer`. */
export class QuestionQueue extends Store<QueueState> {
  private readonly unsubscribers: Array<() => void> = [];
  // Ids that must never come back: answered by us or withdrawn by the host.
  private readonly settled = new Set<string>();
  private noteCounter = 0;
  // Per round id: how many of its answers already went to the host (a send can fail half-way).
  private readonly roundSent = new Map<string, number>();
  // Questions whose task the human cancelled from their dialog: their withdrawal is no news.
  private readonly taskCancels = new Set<string>();

  /**
   * `openTab` opens a link the host checked and handed back (the web shell: in a new tab, from the click); without
   * one, such a link counts as not opened and the dialog offers Copy link.
   */
  constructor(
    private readonly api: QueueHostApi,
    private readonly openTab?: (href: string) => void,
  ) {
    super(initialState);
  }

  /** Subscribes to host events, then loads the questions already waiting. Events win over a stale list. */
  async start(): Promise<void> {
    this.unsubscribers.push(
      this.api.on('questionAdded', (q) => this.add(q)),
      this.api.on('signInAdded', (q) => this.add(q)),
      this.api.on('questionRemoved', (e) => this.withdraw(e.questionId, e.reason, e.note)),
    );
    try {
      const waiting = await this.listAll();
      for (const q of waiting) this.add(q);
      this.set({ loaded: true });
    } catch (err) {
      this.set({ loaded: true, loadError: errorText(err) });
    }
  }

  /**
   * After a lost connection: events sent meanwhile never arrived, so compare
   * with the host's list. Questions it no longer has leave with a note; new
   * ones join the queue.
   */
  async resync(): Promise<void> {
    try {
      const waiting = await this.listAll();
      const ids = new Set(waiting.map((q) => q.id));
      for (const q of this.state.questions)
        if (!ids.has(q.id)) this.withdraw(q.id, 'answered', 'It was settled while the connection was lost.');
      for (const q of waiting) this.add(q);
      this.set({ loadError: null });
    } catch (err) {
      this.set({ loadError: errorText(err) });
    }
  }

  private async listAll(): Promise<QueuedQuestion[]> {
    const [questions, signIns] = await Promise.all([
      this.api.listQuestions({}),
      this.api.listSignIns ? this.api.listSignIns({}) : Promise.resolve([]),
    ]);
    return [...questions, ...signIns];
  }

  /** Stops listening to the host. */
  stop(): void {
    for (const off of this.unsubscribers.splice(0)) off();
  }

  /** The question in front, if any. */
  front(): QueuedQuestion | undefined {
    return this.state.questions[0];
  }

  /** The question the human is looking at: the one in front, or, in a round, the one they stepped to. */
  shown(): QueuedQuestion | undefined {
    return shownQuestion(this.state);
  }

  /**
   * The human's answer. In a round put all at once it is kept as a draft and
   * the next question comes up; the last one sends the whole round, in key
   * order. Otherwise it is sent. Returns false, sending nothing, when the
   * question is not waiting or an answer is already on its way: one answer
   * per question.
   */
  async answer(questionId: string, answer: Answer): Promise<boolean> {
    if (this.state.sending !== null || !this.has(questionId)) return false;
    const position = roundOf(this.state.questions.find((q) => q.id === questionId)!);
    if (!position?.roundId) return this.send(questionId, answer);
    const roundId = position.roundId;
    const members = roundMembers(this.state.questions, roundId);
    // Cancel leaves the whole round at once: every question of it is cancelled, nothing answered is kept.
    const drafts =
      answer.action === 'cancel'
        ? { ...this.state.drafts, ...Object.fromEntries(members.map((m) => [m.id, answer])) }
        : { ...this.state.drafts, [questionId]: answer };
    const done =
      answer.action === 'cancel' ||
      (members.length + (this.roundSent.get(roundId) ?? 0) >= position.count && members.every((m) => drafts[m.id]));
    if (!done) {
      this.set({ drafts, steps: { ...this.state.steps, [roundId]: position.index + 1 } });
      return true;
    }
    this.set({ drafts });
    for (const m of members) {
      if (!(await this.send(m.id, drafts[m.id]!))) return false;
      this.roundSent.set(roundId, (this.roundSent.get(roundId) ?? 0) + 1);
    }
    this.roundSent.delete(roundId);
    return true;
  }

  /** Back to the previous question of a round (its answer kept, to change or confirm); nothing is sent. */
  back(questionId: string): void {
    const found = this.state.questions.find((q) => q.id === questionId);
    const position = found && roundOf(found);
    if (!position?.roundId || position.index <= 1 || this.state.sending !== null) return;
    this.set({ steps: { ...this.state.steps, [position.roundId]: position.index - 1 } });
  }

  private async send(questionId: string, answer: Answer): Promise<boolean> {
    this.set({ sending: questionId, sendError: null });
    try {
      const result = await this.api.answerQuestion({ questionId, answer });
      // accepted:false means the host no longer had it (withdrawn meanwhile): it is gone either way.
      this.settle(questionId);
      this.set({ sending: null });
      return result.accepted;
    } catch (err) {
      // Transport trouble: keep the question so the human can try again.
      this.set({ sending: null, sendError: { questionId, message: errorText(err) } });
      return false;
    }
  }

  /** True when `questionId` waits and belongs to a task this host can cancel ("Cancel task" in its dialog). */
  canCancelTask(questionId: string): boolean {
    const q = this.state.questions.find((x) => x.id === questionId);
    return this.api.cancelTask !== undefined && q !== undefined && q.mode !== 'sign-in' && q.origin.task !== undefined;
  }

  /**
   * "Cancel task" in a task question's dialog: the host cancels the whole task
   * (tasks/cancel) and withdraws its questions; this one is recorded as the
   * human's decision. Nothing is answered here: on success the question just
   * leaves (no removal note: the human did it); on failure it stays, with why.
   */
  async cancelTask(questionId: string): Promise<boolean> {
    const q = this.state.questions.find((x) => x.id === questionId);
    const taskId = q && q.mode !== 'sign-in' ? q.origin.task?.taskId : undefined;
    if (this.state.sending !== null || !taskId || !this.api.cancelTask) return false;
    this.set({ sending: questionId, sendError: null });
    this.taskCancels.add(questionId);
    // The host withdraws the question at once, then waits to hear what the
    // server says (cooperative cancel); other questions need not wait for that.
    const done = () => (this.state.sending === questionId ? { sending: null } : {});
    try {
      await this.api.cancelTask({ taskId, questionId });
      this.settle(questionId);
      this.set(done());
      return true;
    } catch (err) {
      this.taskCancels.delete(questionId);
      this.set({ ...done(), sendError: { questionId, message: errorText(err) } });
      return false;
    }
  }

  /** Asks the host to open a URL question's link (the human's consent): it opens it, or hands it back to open here. */
  async openUrl(questionId: string): Promise<{ opened: boolean; reason?: string }> {
    if (!this.has(questionId)) return { opened: false, reason: 'not waiting' };
    const q = this.state.questions.find((x) => x.id === questionId);
    // An app's link question ends when its link opens: the removal that follows is this consent's, no news.
    if (q && q.mode === 'url' && q.origin.app) this.settled.add(questionId);
    try {
      const result = await this.api.openQuestionUrl({ questionId });
      if (result.opened && result.openHere !== undefined) {
        if (!this.openTab) return { opened: false, reason: 'this window cannot open links' };
        // Exactly the link the host checked, not the one this page was shown.
        this.openTab(result.openHere);
      }
      if (result.opened) this.markOpened(questionId);
      return { opened: result.opened, ...(result.reason !== undefined ? { reason: result.reason } : {}) };
    } catch (err) {
      return { opened: false, reason: errorText(err) };
    }
  }

  /** The human says they opened a link question's link some other way (the host could not open it). */
  markOpened(questionId: string): void {
    if (this.has(questionId) && !this.state.opened[questionId])
      this.set({ opened: { ...this.state.opened, [questionId]: true } });
  }

  /** Removes a note from view. */
  dismissNote(noteId: string): void {
    this.set({ notes: this.state.notes.filter((n) => n.id !== noteId) });
  }

  private has(questionId: string): boolean {
    return this.state.questions.some((q) => q.id === questionId);
  }

  private add(question: QueuedQuestion): void {
    if (this.settled.has(question.id) || this.has(question.id)) return;
    this.set({ questions: [...this.state.questions, question] });
  }

  private withdraw(questionId: string, reason: RemovalReason, detail?: string): void {
    const question = this.state.questions.find((q) => q.id === questionId);
    const ours = this.settled.has(questionId) || this.state.sending === questionId;
    this.settled.add(questionId);
    if (!question) return;
    const patch: { -readonly [K in keyof QueueState]?: QueueState[K] } = {
      questions: this.state.questions.filter((q) => q.id !== questionId),
      drafts: withoutKey(this.state.drafts, questionId),
      opened: withoutKey(this.state.opened, questionId),
    };
    if (this.state.sendError?.questionId === questionId) patch.sendError = null;
    if (this.state.sending === questionId && this.taskCancels.has(questionId)) patch.sending = null;
    // Our own answer echoing back is no news, nor is the withdrawal our own "Cancel task" caused;
    // anything else the human should hear about.
    if (!((reason === 'answered' && ours) || (reason === 'call-cancelled' && this.taskCancels.has(questionId)))) {
      const note: RemovalNote = {
        id: `note-${++this.noteCounter}`,
        questionId,
        server: serverOf(question),
        reason,
      };
      if (detail) note.detail = detail;
      patch.notes = [...this.state.notes, note];
    }
    this.set(patch);
  }

  private settle(questionId: string): void {
    this.settled.add(questionId);
    if (this.has(questionId))
      this.set({
        questions: this.state.questions.filter((q) => q.id !== questionId),
        drafts: withoutKey(this.state.drafts, questionId),
        opened: withoutKey(this.state.opened, questionId),
      });
  }
}

function withoutKey<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  if (!Object.hasOwn(record, key)) return record;
  const rest = { ...record };
  delete rest[key];
  return rest;
}

/** The questions of one round that are waiting, in the round's key order. */
export function roundMembers(questions: readonly QueuedQuestion[], roundId: string): Question[] {
  return questions
    .filter((q): q is Question => q.mode !== 'sign-in' && q.origin.roundPosition?.roundId === roundId)
    .sort((a, b) => a.origin.roundPosition!.index - b.origin.roundPosition!.index);
}

/** Where a question stands in its round (a sign-in belongs to none). */
function roundOf(q: QueuedQuestion): Question['origin']['roundPosition'] {
  return q.mode === 'sign-in' ? undefined : q.origin.roundPosition;
}

/**
 * The question to draw: the one in front, unless it belongs to a round put
 * all at once. Then it is the round's question the human stepped back to, or
 * else its first one not answered yet (undefined for a moment while the rest
 * of the round is still arriving).
 */
export function shownQuestion(state: Pick<QueueState, 'questions' | 'drafts' | 'steps'>): QueuedQuestion | undefined {
  const front = state.questions[0];
  const roundId = front && roundOf(front)?.roundId;
  if (!front || !roundId) return front;
  const members = roundMembers(state.questions, roundId);
  const step = state.steps[roundId] ?? members.find((m) => !state.drafts[m.id])?.origin.roundPosition!.index;
  return step === undefined ? members[members.length - 1] : members.find((m) => m.origin.roundPosition!.index === step);
}

/**
 * How many questions wait for the human: those not answered yet (a draft
 * within an unfinished round counts as answered) plus, for a round put one
 * question at a time, the rest of that round.
 */
export function questionsWaiting(
  questions: readonly QueuedQuestion[],
  drafts: Readonly<Record<string, Answer>> = {},
): number {
  let n = 0;
  for (const q of questions) {
    if (drafts[q.id]) continue;
    const p = roundOf(q);
    n += p && !p.roundId ? Math.max(1, p.count - p.index + 1) : 1;
  }
  return n;
}
