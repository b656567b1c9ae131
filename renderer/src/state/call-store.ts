// Tool calls started from this window, with their outcome. The host may send
// callUpdated for a call before its callTool reply says which call id is
// ours, so updates are kept by id until the reply claims them.
import type { CallView, HostApi } from '../../../shared/host-api/contract';
import { errorText, Store } from './store';

/** The part of the HostApi the store uses. */
export type CallHostApi = Pick<HostApi, 'callTool' | 'cancelCall' | 'on'>;

/** A call as the Tools view lists it. */
export interface UiCall {
  /** Local id, known at once (the host's callId arrives with the reply). */
  readonly id: string;
  readonly callId?: string;
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** 'starting' until the host acknowledged the call. */
  readonly state: 'starting' | CallView['state'];
  readonly result?: unknown;
  readonly error?: string;
  /** How its last round of questions was answered (the host's word), once it completed. */
  readonly lastAnswer?: CallView['lastAnswer'];
  /** True once a cancel was asked for (the host decides whether it still can). */
  readonly cancelling?: boolean;
  readonly startedAt: number;
}

export interface CallState {
  /** Newest first. */
  readonly calls: readonly UiCall[];
}

/** Updates for calls not (yet) claimed are kept, up to this many. */
const MAX_UNCLAIMED = 200;

/** An event-emitting store of the calls started from this window. */
export class CallStore extends Store<CallState> {
  private off: (() => void) | null = null;
  private counter = 0;
  private readonly unclaimed = new Map<string, CallView>();

  constructor(private readonly api: CallHostApi) {
    super({ calls: [] });
  }

  start(): void {
    this.off ??= this.api.on('callUpdated', (view) => this.onUpdate(view));
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  /**
   * Starts a call; resolves with the local id once the host acknowledged it (or refused: the call then shows the
   * error).
   */
  async call(server: string, tool: string, args: Record<string, unknown>): Promise<string> {
    const id = `ui-${++this.counter}`;
    this.set({ calls: [{ id, server, tool, args, state: 'starting', startedAt: Date.now() }, ...this.state.calls] });
    try {
      const { callId } = await this.api.callTool({ server, tool, args });
      const early = this.unclaimed.get(callId);
      this.unclaimed.delete(callId);
      this.patch(id, { callId, state: 'running', ...(early ? fromView(early) : {}) });
    } catch (err) {
      this.patch(id, { state: 'error', error: errorText(err) });
    }
    return id;
  }

  /** Asks the host to cancel a running call. */
  async cancel(id: string): Promise<void> {
    const call = this.state.calls.find((c) => c.id === id);
    if (!call?.callId || call.state !== 'running') return;
    this.patch(id, { cancelling: true });
    try {
      const { cancelled } = await this.api.cancelCall({ callId: call.callId });
      if (!cancelled) this.patch(id, { cancelling: false });
    } catch {
      this.patch(id, { cancelling: false });
    }
  }

  /** Forgets finished calls of one tool (the "clear" button). */
  clearFinished(server: string, tool: string): void {
    this.set({
      calls: this.state.calls.filter(
        (c) => c.server !== server || c.tool !== tool || c.state === 'running' || c.state === 'starting',
      ),
    });
  }

  private onUpdate(view: CallView): void {
    const mine = this.state.calls.find((c) => c.callId === view.callId);
    if (mine) return this.patch(mine.id, fromView(view));
    this.unclaimed.set(view.callId, view);
    if (this.unclaimed.size > MAX_UNCLAIMED) this.unclaimed.delete(this.unclaimed.keys().next().value!);
  }

  private patch(id: string, patch: Partial<UiCall>): void {
    this.set({ calls: this.state.calls.map((c) => (c.id === id ? { ...c, ...patch } : c)) });
  }
}

function fromView(view: CallView): Partial<UiCall> {
  return {
    state: view.state,
    ...(view.result !== undefined ? { result: view.result } : {}),
    ...(view.error !== undefined ? { error: view.error } : {}),
    ...(view.lastAnswer !== undefined ? { lastAnswer: view.lastAnswer } : {}),
    ...(view.state !== 'running' ? { cancelling: false } : {}),
  };
}
