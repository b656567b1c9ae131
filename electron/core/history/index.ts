// Public API of the history journal.

export { canonicalJson, CanonicalJsonError } from './canonical-json';
export { checkLine, encodeEntry, sha256Hex, GENESIS_HASH } from './chain';
export { requestStateDigest, redactContent, redactedContentMatches } from './digests';
export { answerEntry, questionEntry, type AnswerContext, type QuestionContext } from './entries';
export { journalFileName, listJournalFiles, tornSidecarName } from './files';
export {
  DEFAULT_ROTATE_BYTES,
  HistoryJournal,
  HistoryWriteError,
  type HistoryJournalOptions,
  type JournalHead,
} from './journal';
export { JournalLockedError } from './lock';
export { appDataDir, defaultHistoryDir } from './paths';
export {
  buildItems,
  filterItems,
  matchesText,
  textMatcher,
  type HistoryFilter,
  type HistoryItem,
  type OtherItem,
  type QuestionItem,
} from './query';
export { readJournal, type ReadProblem, type ReadResult } from './reader';
export { verifyJournal, type BreakReason, type ChainBreak, type VerifyOptions, type VerifyReport } from './verify';
export * from './types';
