// What the history journal stores: one JSON line per entry, hash-chained.
// Pure types, shared by the core (electron/core/history: journal.ts writes
// them, chain.ts defines the line format) and the renderer's history view.

import type { Action, AnswerContent, CallMethod, FlatSchema, UrlAnalysis } from '../elicitation/types';
import type { TaskStatus } from '../tasks/task-status';

/** Version of the line format, written into every entry as `v`. */
export const JOURNAL_FORMAT_VERSION = 1;

/** `prev` of the very first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Who or what chose the outcome of a question (the one list: core, CLI, approval channel, history view). */
export const DECIDED_BY = [
  'human', // a person in the dialog (decidedByDetail: where, e.g. "window 1" or "tab 2", as the host saw it)
  'script', // a CLI script answering on the human's behalf
  'mute-rule', // a rule the human set up earlier (e.g. "always decline this server")
  'timeout', // nobody answered in time
  'call-cancelled', // the call that caused it was cancelled (by the client, the model or the server)
  'policy', // a host policy (e.g. a blocked URL can never be opened)
  'app-closing', // the app quit or its window closed for good while the question waited: nobody answered
  'input-closed', // `--elicit ask`: the terminal's input ended while the question waited: nobody answered
] as const;
export type DecidedBy = (typeof DECIDED_BY)[number];

/** How the call that asked finally ended (the one list). */
export const CALL_OUTCOMES = ['complete', 'error', 'round-limit', 'cancelled'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** Protocol faults the core records besides questions. */
export type FaultKind =
  | 'invalid-schema' // requestedSchema is not a flat schema the spec allows
  | 'undeclared-request' // a request kind the client did not declare a capability for
  | 'round-limit' // the server kept asking past the host's round limit
  | 'invalid-answer' // an answer failed validation against its schema (content never stored here)
  | 'unknown-result-type' // a result the host does not understand
  | 'invalid-request-state' // requestState missing, malformed or too large
  | 'protocol-error' // anything else the server got wrong
  | 'approval-channel'; // the app's approval socket was replaced, or a gateway's question could not be shown

/** requestState is never stored: only its length (UTF-16 code units) and SHA-256 (hex, over UTF-8). */
export interface RequestStateDigest {
  length: number;
  sha256: string;
}

/** Accepted content when redaction is on: field names and a salted hash, never values. */
export interface RedactedContent {
  /** The accepted field names, sorted. */
  fields: string[];
  /** 128-bit random salt (hex), so low-entropy answers (yes/no, enums) cannot be guessed from the hash. */
  salt: string;
  /** hex SHA-256 of `salt + "\n" + canonicalJson(content)`. */
  sha256: string;
}

export interface ServerInfo {
  /** Configured server name (the key in mcpServers). */
  name: string;
  era: 'modern' | 'legacy';
  /** Negotiated MCP protocol version, when known. */
  protocolVersion?: string;
}

export interface CallInfo {
  method: CallMethod | null;
  /** Tool, prompt name or resource URI. */
  name: string | null;
  /** The short, safe, single-line summary of the call's arguments (QuestionOrigin.argumentsSummary). */
  argumentsSummary?: string;
  /** The agent connection whose call asked (gateway; QuestionOrigin.agent). */
  agent?: string;
  /** The labels above came from a gateway over the approval channel (QuestionOrigin.reportedBy). */
  reportedBy?: 'gateway';
}

// ---------------------------------------------------------------------------
// Entry bodies: what the core hands to append(). The journal adds the header.
// ---------------------------------------------------------------------------

/** A question was put to the human (or a script / rule). `ts` of this entry is the time asked. */
export interface QuestionBody {
  kind: 'question';
  /** Question.id; answers refer to it. */
  questionId: string;
  /** The host's id for the call that caused the question; joins call-end and faults. */
  callId?: string;
  server: ServerInfo;
  call: CallInfo;
  /** 1-based retry round (always 1 for legacy questions). */
  round: number;
  /** The inputRequests key (legacy: a generated one). */
  key: string;
  mode: 'form' | 'url';
  message: string;
  /** Form mode: the schema as received (after validation). */
  requestedSchema?: FlatSchema;
  /**
   * Form mode: the order the fields were shown in. Canonical JSON sorts the
   * keys of `requestedSchema.properties`, so the order is kept here.
   */
  fieldOrder?: string[];
  /** URL mode: the link and everything the host concluded about it, warnings included. */
  url?: UrlAnalysis;
  requestState?: RequestStateDigest;
  /** The task that asked (a question from a long-running task's input_required). */
  taskId?: string;
}

/** The outcome of a question. `ts` of this entry is the time answered. */
export interface AnswerBody {
  kind: 'answer';
  questionId: string;
  /**
   * The seq of the question's entry, when the writer knows it (JournalHistory does): a reader from
   * the end then knows where to stop looking for it. Absent in older journals.
   */
  questionSeq?: number;
  callId?: string;
  /** Server name again, so an answer can be filtered without its question. */
  server: string;
  action: Action;
  decidedBy: DecidedBy;
  /** Which rule, script or policy decided, or the host's reason; for the human, the window or tab they used. */
  decidedByDetail?: string;
  /** Accepted content, when redaction is off. */
  content?: AnswerContent;
  /** Accepted content, when redaction is on. */
  redacted?: RedactedContent;
  /** URL mode: whether the host actually opened the link. */
  urlOpened?: boolean;
  /** Set when the accept needed the person's passkey (Settings → Passkeys, or the server asked for one). */
  passkey?: PasskeyRecordBody;
  /**
   * The MCP App (its ui:// resource) that drew the form the person answered in the host's dialog (SEP-3118).
   * Absent when the native form was used, also after an app failed and the native form took over.
   */
  drawnByApp?: string;
}

/**
 * What became of a passkey confirmation:
 * - confirmed: the receipt, which `countersign receipt verify --entry SEQ` checks offline;
 * - fallback: no passkey was registered (none yet, or every one revoked), so the plain Accept went out, recorded
 *   as such;
 * - cancelled: the person cancelled at the passkey step (the answer sent is then a cancel);
 * - refused: the confirmation was refused (`detail` says why) and nothing was sent.
 */
export interface PasskeyRecordBody {
  status: 'confirmed' | 'fallback' | 'cancelled' | 'refused';
  /** Why a passkey was needed, in the host's words. */
  reason: string;
  detail?: string;
  /** confirmed: the payload the passkey signed and the assertion (hashes and a signature: no secret, no content). */
  receipt?: { format: string; payload: Record<string, unknown>; assertion: Record<string, string> };
}

/** How a call that asked questions finally ended. */
export interface CallEndBody {
  kind: 'call-end';
  callId: string;
  server: string;
  method?: CallMethod | null;
  name?: string | null;
  outcome: CallOutcome;
  /** tools/call: the result's isError flag. */
  isError?: boolean;
  /** How many rounds the call took. */
  rounds?: number;
  /**
   * How many question entries of this call the writer recorded before it ended (0: it asked
   * nothing). Lets a reader from the end know when it has found them all. Absent in older journals.
   */
  questions?: number;
  /** The agent connection that made the call (gateway). */
  agent?: string;
  /** A gateway reported this ending over the approval channel; the app did not see the call. */
  reportedBy?: 'gateway';
  detail?: string;
}

/** A protocol fault. `detail` must never carry answer content or requestState. */
export interface FaultBody {
  kind: 'fault';
  fault: FaultKind;
  server?: string;
  callId?: string;
  questionId?: string;
  round?: number;
  detail: string;
  /** A gateway reported this fault over the approval channel. */
  reportedBy?: 'gateway';
}

/**
 * A task's status changed (or the host first saw it, or stopped following it).
 * One entry per change of `status`, not per status message, so a chatty
 * server cannot flood the journal.
 */
export interface TaskBody {
  kind: 'task';
  taskId: string;
  server: string;
  /** The tool the task runs. */
  tool: string;
  status: TaskStatus;
  /** The status recorded before this one, absent for the first entry of a task. */
  previous?: TaskStatus;
  statusMessage?: string;
  /** The host call that created the task. */
  callId?: string;
  agent?: string;
  /** Set when the host stopped following the task (ended, expired, lost), with why when it did not complete. */
  ended?: true;
  note?: string;
}

/** The steps of a sign-in (MCP authorization), as the history keeps them. */
export const SIGN_IN_PHASES = ['asked', 'opened', 'completed', 'cancelled', 'failed', 'signed-out'] as const;
export type SignInPhase = (typeof SIGN_IN_PHASES)[number];

/** A sign-in step: the server, the issuer and the scopes. Never a token, a code or a verifier. */
export interface SignInBody {
  kind: 'sign-in';
  server: string;
  phase: SignInPhase;
  /** The authorization server's issuer, when known at this step. */
  issuer?: string;
  scopes: string[];
  /** The call that ran into it; absent for a sign-in the human started (Servers view, `auth login`). */
  call?: { method: string; name: string; agent?: string };
  /** The sign-in question's id (asked, opened). */
  questionId?: string;
  /** Failed: the host's own sentence, never the authorization server's text. */
  detail?: string;
  /** A gateway's sign-in: its labels came over the approval channel. */
  reportedBy?: 'gateway';
}

/** What an MCP App did that the history keeps (its tool calls are ordinary calls, recorded as such). */
export const APP_EVENTS = [
  'shown', // the host rendered the tool's app beside the call's result
  'message', // the app sent ui/message: shown to the human, never given to a model (Countersign has none)
  'model-context', // the app sent ui/update-model-context: shown and dropped, for the same reason
  'link-refused', // the app asked to open a link the host refuses outright (blocked scheme, one already waiting)
  'link-opened', // the app asked to open a link; the person consented in the host's link dialog and it opened
  'link-declined', // the app asked to open a link; the person declined or cancelled in the host's dialog
  'closed', // the host closed the app (it broke a rule, e.g. flooded the host with messages)
] as const;
export type AppEventKind = (typeof APP_EVENTS)[number];

/** An MCP App event of one call's app. `detail` is the app's text, cut to one short line. */
export interface AppBody {
  kind: 'app';
  event: AppEventKind;
  /** The call whose result the app was shown beside. */
  callId: string;
  server: string;
  tool: string;
  /** The app's ui:// resource. */
  resourceUri: string;
  detail?: string;
}

/** Something the journal itself has to say about the record. */
export type NoteBody = TornTailNote | RedactionNote;

/** A torn (incomplete) write found at the end of the journal after a crash, moved aside, not dropped. */
export interface TornTailNote {
  kind: 'note';
  note: 'torn-tail';
  detail: string;
  /** Journal file the bytes were cut from, and where. */
  file: string;
  offset: number;
  length: number;
  /** hex SHA-256 of the bytes set aside. */
  sha256: string;
  /** Sidecar file (same folder) that now holds them. */
  sidecar: string;
}

/** The redaction setting changed; entries after this one follow the new setting. */
export interface RedactionNote {
  kind: 'note';
  note: 'redaction';
  detail: string;
  redact: boolean;
}

export type EntryBody =
  QuestionBody | AnswerBody | CallEndBody | FaultBody | TaskBody | NoteBody | SignInBody | AppBody;
export type EntryKind = EntryBody['kind'];

// ---------------------------------------------------------------------------
// What append() accepts: bodies, with raw values the journal digests itself.
// ---------------------------------------------------------------------------

/** A question body; a raw requestState string is accepted and digested before anything is written. */
export type QuestionInput = Omit<QuestionBody, 'requestState'> & {
  requestState?: string | RequestStateDigest;
};

/** An answer body with raw content; the journal redacts it when redaction is on. */
export type AnswerInput = Omit<AnswerBody, 'redacted'>;

export type EntryInput =
  QuestionInput | AnswerInput | CallEndBody | FaultBody | TaskBody | NoteBody | SignInBody | AppBody;

// ---------------------------------------------------------------------------
// Stored entries: body + header.
// ---------------------------------------------------------------------------

export interface EntryHeader {
  /** Format version (JOURNAL_FORMAT_VERSION). */
  v: number;
  /** 1-based, +1 per entry, continuing across rotated files. */
  seq: number;
  /** ISO 8601 UTC with milliseconds, when append() was called. */
  ts: string;
  /** `hash` of the previous entry (GENESIS_HASH for seq 1). */
  prev: string;
  /** hex SHA-256 of the canonical JSON of this entry without `hash`. */
  hash: string;
}

export type QuestionEntry = EntryHeader & QuestionBody;
export type AnswerEntry = EntryHeader & AnswerBody;
export type CallEndEntry = EntryHeader & CallEndBody;
export type FaultEntry = EntryHeader & FaultBody;
export type TaskEntry = EntryHeader & TaskBody;
export type NoteEntry = EntryHeader & NoteBody;
export type SignInEntry = EntryHeader & SignInBody;
export type AppEntry = EntryHeader & AppBody;
export type JournalEntry =
  QuestionEntry | AnswerEntry | CallEndEntry | FaultEntry | TaskEntry | NoteEntry | SignInEntry | AppEntry;

/** What append() resolves with, once the entry is on disk. */
export interface AppendedEntry {
  seq: number;
  hash: string;
  ts: string;
  /** Journal file name (inside the journal folder) that holds the entry. */
  file: string;
  entry: JournalEntry;
}
