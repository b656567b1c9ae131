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
//
// Status notifications (`subscriptions/listen` with `notifications.taskIds`,
// then `notifications/tasks`) are read here too: the SDK's listen filter and
// acknowledgement schemas know no `taskIds` and strip them, and it has no
// handler type for `notifications/tasks`. So the adapter notes which task ids
// each listen asked for and which the server's acknowledgement agreed to, and
// hands every `notifications/tasks` to the host without the SDK.
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, SUBSCRIPTION_ID_META_KEY, type Transport } from '@modelcontextprotocol/client';
import { vouchedAs } from '../../../shared/vouched-as';

const HANDLE_KEY = 'io.countersign/task-handle';

/** Per-connection access to task handles captured at the transport. */
export interface TaskWire {
  /** The raw CreateTaskResult behind a result the adapter rewrote, if it is one. */
  takeTaskHandle(result: unknown): Record<string, unknown> | undefined;
  /** True when `result` is a stand-in for a task handle (nothing is taken). */
  holdsTaskHandle(result: unknown): boolean;
  /** True while an open listen of this connection has the server's word that it pushes this task's status. */
  isPushed(taskId: string): boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(0, 1000) : [];

type OnMessage = NonNullable<Transport['onmessage']>;

/**
 * Wrap a transport BEFORE the client connects (so even the server/discover
 * probe carries the right capabilities); call `attach` once the era is known.
 */
export function prepareTaskWire(
  transport: Transport,
): TaskWire & { attach(modern: boolean, onTaskNotification?: (params: Json) => void): void } {
  const handles = new Map<string, Record<string, unknown>>();
  // Listen request id → the task ids it asked for; → the ones the server agreed to push.
  const asked = new Map<string, Set<string>>();
  const agreed = new Map<string, Set<string>>();
  const endListen = (id: unknown) => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    asked.delete(String(id));
    agreed.delete(String(id));
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const out = message as { id?: unknown; method?: unknown; params?: Json };
    if (out.method === 'subscriptions/listen' && out.id !== undefined) {
      const ids = stringList(isObject(out.params?.notifications) ? out.params.notifications.taskIds : undefined);
      if (ids.length > 0) asked.set(String(out.id), new Set(ids));
    }
    // Our own teardown of a listen.
    if (out.method === 'notifications/cancelled') endListen(out.params?.requestId);
    // Only modern requests carry the per-request envelope; legacy initialize
    // declares `params.capabilities` and keeps its `tasks`.
    const m = message as { params?: { _meta?: Record<string, unknown> } };
    const caps = m.params?._meta?.[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined;
    if (caps && 'tasks' in caps) {
      const { tasks: _legacyOnly, ...rest } = caps;
      // The same request with one capability less: still the JSON-RPC request the SDK built.
      message = vouchedAs({
        ...message,
        params: { ...m.params, _meta: { ...m.params!._meta, [CLIENT_CAPABILITIES_META_KEY]: rest } },
      });
    }
    return send(message, options);
  };
  return {
    attach(modern, onTaskNotification) {
      // Legacy CreateTaskResult ({ task: {...} }) passes the SDK untouched.
      const inner = transport.onmessage;
      if (!modern || !inner) return;
      const wrapped: OnMessage = (message, extra) => {
        const m = message as { id?: unknown; method?: unknown; params?: Json; result?: Json; error?: unknown };
        if (m.method === 'notifications/tasks' && m.id === undefined) {
          // The full task, as tasks/get would return it; parseTask checks it before anything reads it.
          if (isObject(m.params)) onTaskNotification?.(m.params);
          return;
        }
        if (m.method === 'notifications/subscriptions/acknowledged' && isObject(m.params)) {
          const id = isObject(m.params._meta) ? m.params._meta[SUBSCRIPTION_ID_META_KEY] : undefined;
          const wanted = id === undefined ? undefined : asked.get(String(id));
          const notifications = isObject(m.params.notifications) ? m.params.notifications : {};
          // Only what was asked for and agreed to: a server cannot opt the host into pushes it did not request.
          if (wanted) agreed.set(String(id), new Set(stringList(notifications.taskIds).filter((t) => wanted.has(t))));
        }
        if (m.method === 'notifications/cancelled') endListen(m.params?.requestId);
        // A response to a listen (its graceful end, or a refusal) ends it.
        if (m.method === undefined && m.id !== undefined && asked.has(String(m.id))) endListen(m.id);
        if (m.id !== undefined && m.result && m.result.resultType === 'task') {
          const nonce = randomUUID();
          handles.set(nonce, m.result);
          // Bounded: a handle nobody takes (a caller that gave up) must not pile up.
          if (handles.size > 256) handles.delete(handles.keys().next().value as string);
          const stand_in = { resultType: 'complete', content: [], _meta: { [HANDLE_KEY]: nonce } };
          // The same response with a stand-in result the SDK's 2026 decoder accepts.
          inner(vouchedAs<Parameters<OnMessage>[0]>({ ...(message as object), result: stand_in }), extra);
          return;
        }
        inner(message, extra);
      };
      transport.onmessage = wrapped;
    },
    isPushed(taskId) {
      for (const ids of agreed.values()) if (ids.has(taskId)) return true;
      return false;
    },
    holdsTaskHandle(result) {
      const meta = (result as { _meta?: Record<string, unknown> } | undefined)?._meta;
      return typeof meta?.[HANDLE_KEY] === 'string';
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
