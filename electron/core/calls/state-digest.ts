// requestState is opaque and may be sensitive: the host keeps only its
// length and hash (for history), never the value.
import { createHash } from 'node:crypto';
import type { StateDigest } from '../events';

/** Length and SHA-256 (hex) of a requestState string. */
export function digestState(state: string): StateDigest {
  return { length: state.length, sha256: createHash('sha256').update(state, 'utf8').digest('hex') };
}
