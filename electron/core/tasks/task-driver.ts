// Follows one task to its end for the host: polls at the server's interval
// (clamped, backing off while idle), wakes early on status notifications,
// puts every question the task asks through the ONE question gate, answers
// (modern: tasks/update per key; legacy: the task's elicitation/create
// requests, delivered while tasks/result is pending), honours the ttl, and on
// cancel sends tasks/cancel and reports what the server then says. It never
// decides anything for the human and runs no timer on a question.
import type { CallContext } from '../events';
import { HostError, isHostError, messageOf } from '../host-error';
import type { ElicitParams, QuestionAsker } from '../prompter/question-gate';
import { DECLARED_INPUT_METHODS } from '../client-identity';
import { PollSchedule, clampInterval, DEFAULT_POLL_BOUNDS, type PollBounds } from './poll-schedule';
import { expiresAt, isTerminalStatus, type TaskSnapshot } from './task-types';

/** The era-specific wire operations on one connection. */
export interface TaskWireOps {
  era: 'modern' | 'legacy';
  get(taskId: string, signal: AbortSignal): Promise<TaskSnapshot>;
  cancel(taskId: string): Promise<void>;
  /** Modern: answer outstanding keys. */
  update?(taskId: string, responses: Record<string, unknown>, signal: AbortSignal): Promise<void>;
  /** Legacy: tasks/result; blocks until terminal; questions arrive meanwhile. */
  result?(taskId: string, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** Where a task's question comes from, for dialogs ("Task 4f2… of deploy, running 3 min"). */
export interface TaskOriginInfo {
  taskId: string;
  startedAt: string;
}

export interface DriveOptions {
  /** Abort with a HostError('cancelled') to cancel the task; any other reason just stops following it. */
  signal: AbortSignal;
  bounds?: PollBounds;
  /** A task still running after this long (ms) is given up with a clear error. */
  maxTaskMs: number;
  /** When the host got the handle (for dialogs and the limit). */
  startedAt: string;
  /** Every poll result, with whether it differs from the previous one. Awaited (write-ahead). */
  onSnapshot(snapshot: TaskSnapshot, changed: boolean): void | Promise<void>;
  /** A note for the history (an answer dropped, a ttl passed). */
  note(message: string): void | Promise<void>;
  /**
   * True while the server pushes this task's status (modern subscriptions/listen): the host then
   * polls only as a backstop, at the longest interval the bounds allow, and lives on the pushes.
   */
  pushed?(): boolean;
}

/** A running drive, as the host routes legacy questions and notifications to it. */
export interface TaskDrive {
  readonly taskId: string;
  readonly done: Promise<Record<string, unknown>>;
  /** A status notification arrived: take it and poll soon. */
  notify(raw: TaskSnapshot): void;
  /** A legacy elicitation/create tied to this task. */
  askLegacy(params: ElicitParams, serverSignal: AbortSignal): Promise<Record<string, unknown>>;
}

const fingerprint = (s: TaskSnapshot) =>
  JSON.stringify([s.status, s.statusMessage ?? '', s.inputRequests ? Object.keys(s.inputRequests).sort() : []]);

/** A sleep that ends early on `wake()` or abort. */
class Wakeable {
  private wakeUp: (() => void) | undefined;
  private pending = false;
  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wakeUp = undefined;
        this.pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
  }
}

/** A question the host itself refused to send an answer to (not a cancel, which has its own path). */
function isRefusal(error: unknown): error is HostError {
  return isHostError(error) && error.code !== 'cancelled';
}

function shortId(taskId: string): string {
  return taskId.length > 8 ? `${taskId.slice(0, 8)}…` : taskId;
}

/** Start following `first` (the CreateTaskResult's task, or a stored one on resume). */
export function driveTask(
  ops: TaskWireOps,
  first: TaskSnapshot,
  call: CallContext,
  gate: QuestionAsker,
  options: DriveOptions,
): TaskDrive {
  const taskId = first.taskId;
  const bounds = options.bounds ?? DEFAULT_POLL_BOUNDS;
  const schedule = new PollSchedule(bounds);
  const wakeable = new Wakeable();
  // Questions end with the task: when it is over, open dialogs are withdrawn.
  const questions = new AbortController();
  const questionSignal = AbortSignal.any([options.signal, questions.signal]);
  const task: TaskOriginInfo = { taskId, startedAt: options.startedAt };
  let latest = first;
  let pushed: TaskSnapshot | undefined;
  const answered = new Set<string>();
  const asking = new Set<string>();
  let openQuestions = 0;
  let questionChain: Promise<void> = Promise.resolve();
  let questionFailure: unknown;
  let legacyQuestionCount = 0;
  let round = 0;
  let legacyResult: { value?: Record<string, unknown>; error?: unknown } | undefined;
  let legacyPending: Promise<Record<string, unknown>> | undefined;
  // Settles once tasks/cancel went out (or the drive ended without one): a
  // legacy question's cancel answer waits for it, so the server hears "cancel
  // the task" before "the question was cancelled" and does not finish the
  // task as if the human had merely dismissed the question.
  let cancelSettled!: () => void;
  const cancelSent = new Promise<void>((resolve) => (cancelSettled = resolve));

  const ask = async (params: ElicitParams, key: string, era: 'modern' | 'legacy') => {
    openQuestions += 1;
    try {
      return await gate.ask(params, { call, server: call.server, era, round: ++round, key, task }, questionSignal);
    } finally {
      openQuestions -= 1;
    }
  };

  const askModern = async (key: string, request: unknown) => {
    const req = request as { method?: unknown; params?: ElicitParams };
    if (typeof req?.method !== 'string' || !DECLARED_INPUT_METHODS.has(req.method)) {
      const error = new HostError(
        'undeclared-request',
        `server "${call.server}" asked task ${shortId(taskId)} for ${JSON.stringify(req?.method)} (key "${key}"), ` +
          'which this host did not declare; only elicitation is supported',
        { key, requested: req?.method },
      );
      await gate.fault(call, error);
      throw error;
    }
    const { answer } = await ask(req.params ?? {}, key, 'modern');
    // The human may have taken a while: send only what the task still waits for.
    const still =
      latest.status === 'input_required' && latest.inputRequests !== undefined && key in latest.inputRequests;
    if (!still || isTerminalStatus(latest.status)) {
      answered.add(key);
      await options.note(
        `answer to "${key}" of task ${shortId(taskId)} dropped: ` +
          `the task no longer waits for it (status ${latest.status})`,
      );
      return;
    }
    await ops.update!(taskId, { [key]: answer }, options.signal);
    answered.add(key);
    wakeable.wake();
  };

  const loop = async (): Promise<Record<string, unknown>> => {
    let snap = first;
    let last = '';
    const began = Date.now();
    for (;;) {
      const print = fingerprint(snap);
      const changed = print !== last;
      last = print;
      latest = snap;
      await options.onSnapshot(snap, changed);

      if (snap.status === 'completed' || snap.status === 'failed') {
        if (ops.era === 'modern') {
          if (snap.status === 'completed') return snap.result ?? { content: [] };
          throw new HostError(
            'task-failed',
            `task ${shortId(taskId)} on "${call.server}" failed: ` +
              `${snap.error?.message ?? snap.statusMessage ?? 'no reason given'}`,
            { taskId, error: snap.error },
          );
        }
        // One tasks/result per task: reuse the one already waiting.
        const result = legacyResult?.value ?? (await (legacyPending ?? ops.result!(taskId, options.signal)));
        if (snap.status === 'completed') return result;
        const text = (result.content as Array<{ text?: unknown }> | undefined)?.find((c) => typeof c.text === 'string')
          ?.text as string | undefined;
        throw new HostError(
          'task-failed',
          `task ${shortId(taskId)} on "${call.server}" failed: ${text ?? snap.statusMessage ?? 'no reason given'}`,
          { taskId },
        );
      }
      if (snap.status === 'cancelled') {
        throw new HostError(
          'cancelled',
          `task ${shortId(taskId)} on "${call.server}" ` +
            `was cancelled by the server${snap.statusMessage ? `: ${snap.statusMessage}` : ''}`,
          { taskId, serverStatus: 'cancelled' },
        );
      }

      if (snap.status === 'input_required') {
        if (ops.era === 'modern') {
          for (const [key, request] of Object.entries(snap.inputRequests ?? {})) {
            if (answered.has(key) || asking.has(key)) continue;
            asking.add(key);
            // One dialog at a time per task, in the order the server listed them.
            questionChain = questionChain
              .then(() => askModern(key, request))
              .catch((e) => {
                questionFailure ??= e;
                wakeable.wake();
              });
          }
        } else if (!legacyPending && !legacyResult) {
          // The SDK 1.x way: questions are delivered while tasks/result waits.
          const pending = ops.result!(taskId, options.signal);
          legacyPending = pending;
          pending.then(
            (value) => {
              legacyResult = { value };
              wakeable.wake();
            },
            (error) => {
              legacyPending = undefined;
              if (!options.signal.aborted) legacyResult = { error };
              wakeable.wake();
            },
          );
        }
      }
      if (questionFailure) throw questionFailure;
      if (legacyResult?.error) throw legacyResult.error;

      const now = Date.now();
      const expiry = expiresAt(snap);
      // No clock runs against the human: a ttl that passes while a dialog is
      // open is the server's to enforce; the host checks it between questions.
      if (expiry !== undefined && now > expiry + clampInterval(snap.pollIntervalMs, bounds) && openQuestions === 0) {
        throw new HostError(
          'task-expired',
          `task ${shortId(taskId)} on "${call.server}" outlived its ttl of ${snap.ttlMs} ms while still ` +
            `${snap.status}; the host stopped following it`,
          { taskId, ttlMs: snap.ttlMs },
        );
      }
      if (now - began > options.maxTaskMs && openQuestions === 0) {
        throw new HostError(
          'task-timeout',
          `task ${shortId(taskId)} on "${call.server}" did not end within ${Math.round(options.maxTaskMs / 1000)} s; ` +
            'the host stopped following it (it may still run on the server)',
          { taskId },
        );
      }

      const interval = schedule.next(snap.pollIntervalMs, changed);
      await wakeable.sleep(options.pushed?.() ? Math.max(interval, bounds.maxMs) : interval, options.signal);
      if (options.signal.aborted) throw options.signal.reason;
      if (questionFailure) throw questionFailure;
      if (legacyResult?.value && ops.era === 'legacy') {
        // tasks/result answered: the task is over; one look at its final status.
        snap = await ops.get(taskId, options.signal).catch(() => ({ ...latest, status: 'completed' as const }));
        if (!isTerminalStatus(snap.status)) snap = { ...snap, status: 'completed' };
        continue;
      }
      if (pushed) {
        snap = pushed;
        pushed = undefined;
        continue;
      }
      try {
        snap = await ops.get(taskId, options.signal);
      } catch (error) {
        if (options.signal.aborted) throw options.signal.reason;
        const expiry2 = expiresAt(latest);
        if (expiry2 !== undefined && Date.now() > expiry2) {
          throw new HostError(
            'task-expired',
            `task ${shortId(taskId)} on "${call.server}" is gone: ` +
              `its ttl of ${latest.ttlMs} ms has passed (${messageOf(error)})`,
            { taskId, ttlMs: latest.ttlMs },
          );
        }
        throw error;
      }
    }
  };

  /** tasks/cancel, then a few looks at what the server says (cancellation is cooperative). */
  const cancelAndReport = async (original: unknown): Promise<HostError> => {
    if (isHostError(original) && original.details?.serverStatus) return original;
    let reported = latest;
    try {
      await ops.cancel(taskId).finally(cancelSettled);
      const look = new AbortController();
      const deadline = Date.now() + 4 * clampInterval(latest.pollIntervalMs, bounds);
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, clampInterval(latest.pollIntervalMs, bounds)));
        reported = await ops.get(taskId, look.signal);
        await options.onSnapshot(reported, reported.status !== latest.status);
        latest = reported;
        if (isTerminalStatus(reported.status)) break;
      }
    } catch (error) {
      return new HostError(
        'cancelled',
        `task ${shortId(taskId)} was cancelled here; telling the server failed: ${messageOf(error)}`,
        {
          taskId,
          serverStatus: 'unknown',
        },
      );
    }
    const said = `${reported.status}${reported.statusMessage ? ` (${reported.statusMessage})` : ''}`;
    return new HostError(
      'cancelled',
      reported.status === 'cancelled'
        ? `task ${shortId(taskId)} was cancelled; the server reports it cancelled`
        : `cancel of task ${shortId(taskId)} was sent; ` +
            `the server still reports it ${said} (cancellation is cooperative)`,
      { taskId, serverStatus: reported.status },
    );
  };

  const done = (async () => {
    try {
      return await loop();
    } catch (error) {
      // Any abort cancels the task, except the host shutting down (it is resumed next start).
      if (options.signal.aborted && !isHostError(options.signal.reason, 'connection')) {
        throw await cancelAndReport(error);
      }
      // A question the host refused (an answer that does not fit the form, a
      // form it cannot show): as in a plain call, nothing is sent and the call
      // ends with that error; the task is cancelled so the server does not go
      // on with a fallback of its own.
      if (error === questionFailure && isRefusal(error)) {
        await cancelAndReport(error);
        throw error;
      }
      throw error;
    } finally {
      cancelSettled();
      questions.abort(new HostError('cancelled', 'the task ended'));
    }
  })();

  return {
    taskId,
    done,
    notify(snapshot) {
      if (snapshot.taskId !== taskId) return;
      pushed = snapshot;
      wakeable.wake();
    },
    async askLegacy(params, serverSignal) {
      const key = `task-elicit-${++legacyQuestionCount}`;
      const signal = AbortSignal.any([serverSignal, questionSignal]);
      openQuestions += 1;
      try {
        const { answer } = await gate.ask(
          params,
          { call, server: call.server, era: 'legacy', round: ++round, key, task },
          signal,
        );
        return answer;
      } catch (error) {
        if (isHostError(error, 'cancelled')) {
          if (options.signal.aborted && !isHostError(options.signal.reason, 'connection')) await cancelSent;
          return { action: 'cancel' };
        }
        if (isRefusal(error)) {
          // The drive ends the call with this error and cancels the task; the
          // server hears the cancel first, then this question withdrawn.
          questionFailure ??= error;
          wakeable.wake();
          await cancelSent;
          return { action: 'cancel' };
        }
        throw error;
      } finally {
        openQuestions -= 1;
      }
    },
  };
}
