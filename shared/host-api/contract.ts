// The one API between the renderer and the host (Electron main or the
// loopback web shell). Defined once here: the method list, the zod schema of
// every parameter object (checked on the host side before anything runs),
// and the events the host pushes. Main, preload and the web bridge are all
// built from `hostMethodNames` / `hostEventNames`, so they cannot drift.
import { z } from 'zod';
import type { Answer, Question } from '../elicitation/types';
import type { ServerSignInView, SignInQuestion } from '../auth/types';
import type { HistoryItem } from '../history/items';
import { HOST_EVENT_NAMES, HOST_METHOD_NAMES } from './names';
import { MAX_QUESTION_TIME_LIMIT_MINUTES } from '../question-time-limit';
import { MAX_MAX_ROUNDS, MIN_MAX_ROUNDS } from '../round-limit';
import type { ConfigInput, ImportPlanItem, ServerEntry } from '../config/server-entry';
import type { TaskStatus } from '../tasks/task-status';
import type { DecidedBy } from '../history/journal-types';

const name = z.string().min(1).max(200);
const id = z.string().min(1).max(200);

/** An answer value as MCP allows it: string, number, boolean or string[]. */
export const answerValueSchema = z.union([
  z.string().max(100_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(100_000)).max(1000),
]);

/** An answer as the renderer may send it. Content only goes with accept. */
export const answerSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('accept'), content: z.record(z.string().max(200), answerValueSchema).optional() }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);

/** A server entry in the mcpServers shape (stdio or HTTP). */
export const serverEntrySchema = z.union([
  z.strictObject({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
  z.strictObject({
    type: z.enum(['http', 'streamable-http']).optional(),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);

export const settingsSchema = z.strictObject({
  maxRounds: z.number().int().min(MIN_MAX_ROUNDS).max(MAX_MAX_ROUNDS),
  language: z.enum(['system', 'en', 'de']),
  theme: z.enum(['system', 'light', 'dark']),
  redactHistory: z.boolean(),
  /**
   * Minutes a question may stay open before it is cancelled; 0 = no limit
   * (the default: no timer runs while a human decides).
   */
  questionTimeLimitMinutes: z.number().int().min(0).max(MAX_QUESTION_TIME_LIMIT_MINUTES),
  /**
   * What a "question waiting" notification says: 'names' (the default) the server and the tool only; 'message'
   * also the question's own message, shortened to one line. Never its arguments or a sign-in's link.
   */
  notificationDetail: z.enum(['names', 'message']),
  /**
   * When an Accept needs the person's passkey (off until the person turns it on): for the tools a server marks
   * destructive, for every accept, and for chosen servers or tools (`tool` absent: every tool of that server).
   * Decline and Cancel never do. `suggest`: offer to turn it on when a destructive question first arrives.
   */
  passkeys: z.strictObject({
    destructive: z.boolean(),
    every: z.boolean(),
    chosen: z.array(z.strictObject({ server: name, tool: name.optional() })).max(500),
    suggest: z.boolean(),
  }),
  /**
   * Experimental (SEP-3118, a draft): a form question that names an MCP App is drawn by that app inside the host's
   * dialog. The app only proposes values; the host checks them against the question's schema and its own buttons
   * answer. Off by default.
   */
  appQuestions: z.boolean(),
});

export const historyFilterSchema = z.strictObject({
  server: z.string().max(200).optional(),
  action: z.enum(['accept', 'decline', 'cancel']).optional(),
  /** 'question': every question (forms and links), none of the other rows. */
  mode: z.enum(['form', 'url', 'question']).optional(),
  since: z.string().max(40).optional(),
  until: z.string().max(40).optional(),
  text: z.string().max(500).optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});

const jsonObject = z.record(z.string(), z.unknown());

/** Every method: its params schema. Results are typed in `HostResults`. */
export const hostMethods = {
  listServers: z.strictObject({}),
  addServer: z.strictObject({ name, entry: serverEntrySchema }),
  updateServer: z.strictObject({ name, entry: serverEntrySchema }),
  removeServer: z.strictObject({ name }),
  /**
   * Read another agent's config (JSON/JSONC, Codex TOML, Goose YAML). `dryRun` only says what would be added
   * (nothing is written, nothing starts); the real import takes the names the person agreed to and the values
   * they typed for `${input:…}`.
   */
  importServers: z.strictObject({
    json: z.string().max(5_000_000),
    source: z.enum(['claude-desktop', 'cursor', 'vscode', 'mcpServers']).optional(),
    fileName: z.string().max(4096).optional(),
    dryRun: z.boolean().optional(),
    names: z.array(name).max(1000).optional(),
    inputs: z.record(z.string().max(200), z.string().max(10_000)).optional(),
  }),
  reconnectServer: z.strictObject({ name }),
  listCatalog: z.strictObject({ server: name }),
  callTool: z.strictObject({ server: name, tool: name, args: jsonObject }),
  cancelCall: z.strictObject({ callId: id }),
  listQuestions: z.strictObject({}),
  /** Sign-ins waiting in the same queue (consent: openQuestionUrl; Cancel: answerQuestion cancel). */
  listSignIns: z.strictObject({}),
  answerQuestion: z.strictObject({ questionId: id, answer: answerSchema }),
  openQuestionUrl: z.strictObject({ questionId: id }),
  muteServer: z.strictObject({ server: name, muted: z.boolean() }),
  queryHistory: historyFilterSchema,
  exportHistory: z.strictObject({ filter: historyFilterSchema, format: z.enum(['jsonl', 'csv']) }),
  /** Check the history's hash chain from its first entry to its last (what `countersign history verify` does). */
  verifyHistory: z.strictObject({}),
  getSettings: z.strictObject({}),
  updateSettings: settingsSchema.partial(),
  /** Sign in to an HTTP server from the Servers view (the sign-in dialog comes next); `scopes` asks for more. */
  signIn: z.strictObject({ server: name, scopes: z.array(z.string().min(1).max(200)).max(50).optional() }),
  /** Sign out: revoke where the server offers it, and delete what is kept. */
  signOut: z.strictObject({ server: name }),
  listTasks: z.strictObject({}),
  /**
   * Cancel a task (tasks/cancel). `questionId`: the human pressed "Cancel task"
   * in that question's dialog; the host checks the question is one of the task's.
   */
  cancelTask: z.strictObject({
    taskId: z.string().min(1).max(512),
    questionId: z.string().min(1).max(512).optional(),
  }),
  /** Show the MCP App of a completed call's tool (null: the tool names none). Only where a front end can frame it. */
  openApp: z.strictObject({ server: name, tool: name, callId: id }),
  /** A tools/call an open app made; it goes to the app's own server through the host's call path. */
  callAppTool: z.strictObject({ appId: id, tool: name, args: jsonObject }),
  /** Record what an app did that the host shows but does not act on (its text is cut to one line). */
  recordAppEvent: z.strictObject({
    appId: id,
    // question-drawn / question-fallback: an app drawing a question's form holds it, or the native form took over.
    event: z.enum(['message', 'model-context', 'closed', 'question-drawn', 'question-fallback']),
    text: z.string().max(100_000),
  }),
  /**
   * The app asked to open a link (ui/open-link): the host checks it and puts it to the person as a URL question in
   * its own dialog, where only their click (openQuestionUrl) opens it; resolves once they decided.
   */
  openAppLink: z.strictObject({ appId: id, url: z.string().max(100_000) }),
  /** The app's frame went away: forget it and stop its calls. */
  closeApp: z.strictObject({ appId: id }),
  /** The registered passkeys (public keys stay in the host: the view carries names and ids). */
  listPasskeys: z.strictObject({}),
  /**
   * Register a passkey named `name`: the host starts the ceremony page at http://localhost:PORT and opens it (the
   * desktop: the system browser), or hands it back for the person's tab to open from the click (the web shell).
   */
  registerPasskey: z.strictObject({ name: z.string().trim().min(1).max(100) }),
  /** Revoke a passkey by credential id: from then on nothing it signs is accepted. */
  revokePasskey: z.strictObject({ id: z.string().min(1).max(1000) }),
  /**
   * The MCP App a waiting form question names (SEP-3118), to draw its form in the dialog; refused while Settings →
   * App-drawn questions is off. The app proposes values only: the dialog checks them, the person's button answers.
   */
  openQuestionApp: z.strictObject({ questionId: id }),
} as const;

export type HostMethodName = keyof typeof hostMethods;
/** The method names, in one order everywhere (from names.ts, checked below). */
export const hostMethodNames: readonly HostMethodName[] = HOST_METHOD_NAMES;
// Compile-time parity: names.ts lists exactly the methods that have schemas.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodNamesMatch: Same<(typeof HOST_METHOD_NAMES)[number], HostMethodName> = true;
void methodNamesMatch;
export type HostParams<M extends HostMethodName> = z.infer<(typeof hostMethods)[M]>;

export type { ServerEntry };
// Compile-time check: every entry the wire schema accepts is a ServerEntry (the
// one type, shared/config/server-entry.ts); the config rules then validate it.
const wireEntryIsServerEntry: z.infer<typeof serverEntrySchema> extends ServerEntry ? true : false = true;
void wireEntryIsServerEntry;
export type Settings = z.infer<typeof settingsSchema>;
export type HistoryFilter = z.infer<typeof historyFilterSchema>;

/** A configured server as the UI shows it. */
export interface ServerView {
  name: string;
  entry: ServerEntry;
  status: 'idle' | 'connecting' | 'connected' | 'error';
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  error?: string;
  /** Why it did not start, when it lacks values: each placeholder, where it stands and why it has no value. */
  needs?: string[];
  muted: boolean;
  /** HTTP servers: whether a sign-in is needed or held, and its issuer, scopes and expiry. Never a token. */
  signIn?: ServerSignInView;
}

export interface CatalogView {
  tools: Array<{
    name: string;
    title?: string;
    description?: string;
    inputSchema: Record<string, unknown>;
    /** The tool names an MCP App (`_meta.ui.resourceUri`): the Tools view shows it beside each result. */
    app?: true;
  }>;
  prompts: Array<{
    name: string;
    title?: string;
    description?: string;
    arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  }>;
  resources: Array<{ uri: string; name: string; title?: string; description?: string; mimeType?: string }>;
  /** A part the server declares but could not list, with its reason (the server's words, one line, cut). */
  unlisted?: { prompts?: string; resources?: string };
}

/** An MCP App the host published for one call, as the renderer frames it. */
export interface AppView {
  appId: string;
  server: string;
  /** The tool's definition as its app's host context carries it. */
  tool: { name: string; title?: string; description?: string; inputSchema: Record<string, unknown> };
  resourceUri: string;
  /** Where the frame loads the document: another origin than the renderer's, served once. */
  documentUrl: string;
  /** The permissions the resource declared (the frame's allow attribute grants these and nothing else). */
  permissions: Array<'camera' | 'microphone' | 'geolocation' | 'clipboardWrite'>;
  prefersBorder: boolean;
}

/** A registered passkey as the Settings view lists it. */
export interface PasskeyView {
  id: string;
  name: string;
  created: string;
  revoked?: string;
}

/** A call the UI started, with its outcome once it ended. */
export interface CallView {
  callId: string;
  server: string;
  tool: string;
  state: 'running' | 'complete' | 'error' | 'cancelled';
  /** The final MCP result (complete) or the host error message (error). */
  result?: unknown;
  error?: string;
  /** How the call's last round of questions was answered, if it asked any: the outcome words read it. */
  lastAnswer?: LastAnswer;
}

/**
 * The answer a call's or task's last round amounts to (its worst: one decline among accepts is a decline), and who
 * gave it. A server usually completes a call the person declined, so the state alone would read as a success.
 */
export interface LastAnswer {
  action: Answer['action'];
  decidedBy: DecidedBy;
}

/** What waits in the human's queue: a server's question, or a sign-in (one queue, one dialog at a time). */
export type QueuedQuestion = Question | SignInQuestion;

/** A task the host follows or remembers, as the Tasks view shows it. */
export interface TaskView {
  taskId: string;
  server: string;
  tool: string;
  /** The status the server last reported. */
  status: TaskStatus;
  statusMessage?: string;
  /** When the host got the task handle (ISO); the view's age counts from it. */
  startedAt: string;
  lastUpdatedAt: string;
  /** Set once the host stopped following it. */
  endedAt?: string;
  /** This host is following it now (polling, asking its questions); Cancel applies. */
  running: boolean;
  /** The tool result, once completed. */
  result?: Record<string, unknown>;
  /** Why the host stopped following it when it did not complete, or what cancel found. */
  note?: string;
  agent?: string;
  /** How its last question was answered, while this host remembers (not across a restart). */
  lastAnswer?: LastAnswer;
}

/**
 * The history chain's state: `entries` that checked out (all of them when `ok`),
 * else where the chain first breaks, in the core's plain English sentence.
 */
export interface HistoryVerifyView {
  ok: boolean;
  entries: number;
  firstBreak?: { file: string; line: number; seq?: number; detail: string };
}

/** A history item as the UI lists it: the journal's own item types (shared/history/items.ts). */
export type HistoryEntryView = HistoryItem;

/** What each method resolves to. */
export interface HostResults {
  listServers: ServerView[];
  addServer: ServerView[];
  updateServer: ServerView[];
  removeServer: ServerView[];
  importServers: {
    imported: string[];
    skipped: Array<{ name: string; reason: string }>;
    /** What each importable server runs; on a dry run, what would be added. */
    plan: ImportPlanItem[];
    /** Values to ask the person for before the import (`${input:…}`). */
    inputs: ConfigInput[];
  };
  reconnectServer: ServerView;
  listCatalog: CatalogView;
  callTool: { callId: string };
  cancelCall: { cancelled: boolean };
  listQuestions: Question[];
  listSignIns: SignInQuestion[];
  answerQuestion: { accepted: boolean };
  /**
   * `openHere` (the web shell): the host checked the link and leaves the opening to the consenting tab, which opens
   * exactly this, from the click, with noopener. Otherwise the host opened it in the system browser itself.
   */
  openQuestionUrl: { opened: boolean; reason?: string; openHere?: string };
  muteServer: ServerView[];
  /**
   * Newest first. `total` is exact once `complete` (the read reached the journal's first entry);
   * before that it counts the items found so far, and more may follow.
   */
  queryHistory: { total: number; complete: boolean; entries: HistoryEntryView[] };
  /** The export as text, or (web shell) a one-use link that streams it as a download. */
  exportHistory: { filename: string; data: string } | { filename: string; url: string };
  verifyHistory: HistoryVerifyView;
  getSettings: Settings;
  updateSettings: Settings;
  signIn: ServerView[];
  signOut: { servers: ServerView[]; revoked: boolean; revocationSupported: boolean };
  /** Newest first: running tasks and the last finished ones. */
  listTasks: TaskView[];
  /** The task after the cancel, in the state the server reports (cancellation is cooperative). */
  cancelTask: TaskView;
  openApp: { app: AppView | null };
  callAppTool: { result: Record<string, unknown> };
  /** false: the app was closed for sending too much. */
  recordAppEvent: { recorded: boolean };
  /** opened: the person consented in the host's dialog and the link opened; otherwise `reason` says why not. */
  openAppLink: { opened: boolean; reason?: string };
  closeApp: { closed: boolean };
  listPasskeys: PasskeyView[];
  /** `openHere` (the web shell): the registration page, for the consenting tab to open with noopener. */
  registerPasskey: { opened: boolean; openHere?: string };
  revokePasskey: PasskeyView[];
  openQuestionApp: { app: AppView };
}

/** Events the host pushes to the renderer. */
export interface HostEvents {
  questionAdded: Question;
  /** A sign-in joined the question queue (questionRemoved takes it away, like any question). */
  signInAdded: SignInQuestion;
  /** A question left the queue: answered, or its call/server went away (reason says which). */
  questionRemoved: {
    questionId: string;
    reason: 'answered' | 'call-cancelled' | 'call-ended' | 'server-gone' | 'timeout';
    note?: string;
  };
  serversChanged: ServerView[];
  /**
   * servers.json was edited by hand and could not be loaded (`error` names the
   * file, line and column; the list shown stays the last good one), or, with
   * null, it loads again.
   */
  serversFileProblem: { error: string | null };
  callUpdated: CallView;
  historyAppended: { seq: number };
  settingsChanged: Settings;
  /**
   * Something about the approval channel the human must see at once (a
   * banner): another process removed or replaced the app's socket, or it was
   * bound again.
   */
  appAlert: { kind: 'socket-missing' | 'socket-replaced' | 'socket-restored'; message: string };
  /** A task started, changed status or message, or ended. */
  taskUpdated: TaskView;
  /** A passkey was registered or revoked; `registrationError`: a registration the page ended without one. */
  passkeysChanged: { passkeys: PasskeyView[]; registrationError?: string };
}
export type HostEventName = keyof HostEvents;
export const hostEventNames: readonly HostEventName[] = HOST_EVENT_NAMES;
const eventNamesMatch: Same<(typeof HOST_EVENT_NAMES)[number], HostEventName> = true;
void eventNamesMatch;

/** The API every front end is given. Components call this and nothing else. */
export type HostApi = {
  [M in HostMethodName]: (params: HostParams<M>) => Promise<HostResults[M]>;
} & {
  /** Subscribe to a host event; returns the unsubscribe function. */
  on<E extends HostEventName>(event: E, listener: (payload: HostEvents[E]) => void): () => void;
};

/** Checks params for a method; returns a clear error naming the method and field. */
export function parseHostParams<M extends HostMethodName>(
  method: M,
  params: unknown,
): { ok: true; value: HostParams<M> } | { ok: false; error: string; details: { path: string; problem: string } } {
  const schema = hostMethods[method];
  if (!schema)
    return { ok: false, error: `unknown method "${String(method)}"`, details: { path: '', problem: 'unknown method' } };
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as HostParams<M> };
  const first = parsed.error.issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  const problem = first?.message ?? 'malformed';
  return { ok: false, error: `${method}: invalid ${path || '(params)'}: ${problem}`, details: { path, problem } };
}

/** Narrow an unknown string to a method name. */
export function isHostMethodName(value: unknown): value is HostMethodName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(hostMethods, value);
}

export type { Answer, Question, SignInQuestion };
