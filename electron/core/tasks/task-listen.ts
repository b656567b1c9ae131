// Asks a modern server to push one task's status (`subscriptions/listen` with
// `notifications.taskIds`, Tasks extension). The listen is best effort: a
// server that refuses, or acknowledges without the task, leaves the host
// polling as before, and its stream is closed at once. The SDK carries the
// stream (SSE over HTTP, the shared pipe over stdio); the task wire reads the
// acknowledgement and the pushes, which the SDK does not model.
import type { SubscriptionFilter } from '@modelcontextprotocol/client';
import { vouchedAs } from '../../../shared/vouched-as';
import type { ServerConnection } from '../connection/server-connection';

/** An open (or opening) listen for one task; `close` ends it either way. */
export interface TaskListen {
  close(): void;
}

/** Start listening for `taskId`'s status on `conn` (modern era only). */
export function listenForTask(conn: ServerConnection, taskId: string): TaskListen {
  const controller = new AbortController();
  let closed = false;
  let subscription: { close(): Promise<void> } | undefined;
  // `taskIds` is the extension's field of the listen filter; the SDK's type predates it.
  const filter = vouchedAs<SubscriptionFilter>({ taskIds: [taskId] });
  conn.client.listen(filter, { signal: controller.signal }).then(
    (sub) => {
      subscription = sub;
      // Acknowledged without this task: nothing will come; do not hold a stream open for nothing.
      if (closed || !conn.taskWire.isPushed(taskId)) void sub.close().catch(() => undefined);
    },
    () => undefined, // refused or unsupported: polling goes on as before
  );
  return {
    close() {
      if (closed) return;
      closed = true;
      controller.abort();
      void subscription?.close().catch(() => undefined);
    },
  };
}
