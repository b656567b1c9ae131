// Public API of the history journal.

export { canonicalJson, CanonicalJsonError } from './canonical-json.js';
export { checkLine, encodeEntry, sha256Hex, GENESIS_HASH } from './chain.js';
export { requestStateDigest, redactContent, redactedContentMatches } from './digests.js';
export { answerEntry, questionEntry, type AnswerContext, type QuestionContext } from './entries.js';
export { journalFileName, listJournalFiles, tornSidecarName } from './files.js';
export {
  DEFAULT_ROTATE_BYTES,
  HistoryJournal,
  HistoryWriteError,
  type HistoryJournalOptions,
  type JournalHead,
} from './journal.js';
export { JournalLockedError } from './lock.js';
export { appDataDir, defaultHistoryDir } from './paths.js';
export {
  buildItems,
  filterItems,
  matchesText,
  textMatcher,
  type HistoryFilter,
  type HistoryItem,
  type OtherItem,
  type QuestionItem,
} from './query.js';
export { readJournal, type ReadProblem, type ReadResult } from './reader.js';
export { verifyJournal, type BreakReason, type ChainBreak, type VerifyOptions, type VerifyReport } from './verify.js';
export { writeAhead } from './write-ahead.js';
export * from './types.js';
