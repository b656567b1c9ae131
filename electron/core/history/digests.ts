// Digests that stand in for values the journal must not keep.

import { randomBytes } from 'node:crypto';
import type { AnswerContent } from '../../../shared/elicitation/types';
import { canonicalJson } from './canonical-json';
import { sha256Hex } from './chain';
import type { RedactedContent, RequestStateDigest } from './types';

/** requestState as history keeps it: its length (UTF-16 code units) and the hex SHA-256 of its UTF-8 bytes. */
export function requestStateDigest(state: string): RequestStateDigest {
  return { length: state.length, sha256: sha256Hex(state) };
}

/** Replace accepted content by its field names and a salted hash. */
export function redactContent(content: AnswerContent, salt: string = randomBytes(16).toString('hex')): RedactedContent {
  return {
    fields: Object.keys(content).sort(),
    salt,
    sha256: sha256Hex(`${salt}\n${canonicalJson(content)}`),
  };
}

/** Whether `content` is what was accepted, for someone who has it (e.g. to prove an answer later). */
export function redactedContentMatches(redacted: RedactedContent, content: AnswerContent): boolean {
  return redactContent(content, redacted.salt).sha256 === redacted.sha256;
}
