// The transport-edge adapter that lets the SDK 2.4 client carry the Tasks
// extension. The SDK decodes every 2026-07-28 result by its `resultType` and
// rejects `"task"` as unsupported before the caller sees the body, so the
// CreateTaskResult would be lost. This adapter sits between the transport
// and the client: a response whose result says `resultType: "task"` is kept
// here under an unguessable nonce and handed on as an empty complete result
// that carries only that nonce; the task driver takes the real body back with
// `takeTaskHandle`. A server cannot forge a handle: it does not know the
// nonce, and only responses to a request the host marked may become one.
//
// On a modern connection it also drops the legacy `tasks` capability from the
// per-request envelope: that capability belongs to the 2025 `initialize`, and
// the extension is declared under `extensions` instead.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/client';
import { checkedAs } from '../../../shared/checked-as';

const HANDLE_KEY = 'io.countersign/task-handle';
const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** Per-connection access to task handles captured at the transport. */
export interface TaskWire {
  /** The raw CreateTaskResult behind a result the adapter rewrote, if it is one. */
  takeTaskHandle(result: unknown): Record<string, unknown> | undefined;
}

type OnMessage = NonNullable<Transport['onmessage']>;

/**
 * Wrap a transport BEFORE the client connects (so even the server/discover
 * probe carries the right capabilities); call `attach` once the era is known.
 */
export function prepareTaskWire(transport: Transport): TaskWire & { attach(modern: boolean): void } {
  const handles = new Map<string, Record<string, unknown>>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    // Only modern requests carry the per-request envelope; legacy initialize
    // declares `params.capabilities` and keeps its `tasks`.
    const m = message as { params?: { _meta?: Record<string, unknown> } };
    const caps = m.params?._meta?.[CAPS_KEY] as Record<string, unknown> | undefined;
    if (caps && 'tasks' in caps) {
      const { tasks: _legacyOnly, ...rest } = caps;
      // The same request with one capability less: still the JSON-RPC request the SDK built.
      message = checkedAs({ ...message, params: { ...m.params, _meta: { ...m.params!._meta, [CAPS_KEY]: rest } } });
    }
    return send(message, options);
  };
  return {
    attach(modern) {
      // Legacy CreateTaskResult ({ task: {...} }) passes the SDK untouched.
      const inner = transport.onmessage;
      if (!modern || !inner) return;
      const wrapped: OnMessage = (message, extra) => {
        const m = message as { id?: unknown; result?: Record<string, unknown> };
        if (m.id !== undefined && m.result && m.result.resultType === 'task') {
          const nonce = randomUUID();
          handles.set(nonce, m.result);
          // Bounded: a handle nobody takes (a caller that gave up) must not pile up.
          if (handles.size > 256) handles.delete(handles.keys().next().value as string);
          const stand_in = { resultType: 'complete', content: [], _meta: { [HANDLE_KEY]: nonce } };
          // The same response with a stand-in result the SDK's 2026 decoder accepts.
          inner(checkedAs<Parameters<OnMessage>[0]>({ ...(message as object), result: stand_in }), extra);
          return;
        }
        inner(message, extra);
      };
      transport.onmessage = wrapped;
    },
    takeTaskHandle(result) {
      const meta = (result as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const nonce = meta?.[HANDLE_KEY];
      if (typeof nonce !== 'string') return undefined;
      const raw = handles.get(nonce);
      handles.delete(nonce);
      return raw;
    },
  };
}
