// The undo list of tests that start real servers, hosts and folders: each
// push is undone after the test, newest first, even when the test failed.
import { afterEach } from 'vitest';

/** What undoes one thing a test started. */
export type Cleanup = () => Promise<void>;

/** A list to push cleanups on; call at the top of a test file (it registers the afterEach). */
export function cleanupsAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return cleanups;
}
