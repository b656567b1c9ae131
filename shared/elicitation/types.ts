// The shapes every side agrees on for a question put to the human and the
// answer that goes back. Pure data: no Node, Electron, React or DOM here.

/** A value an elicitation answer may carry (MCP allows nothing else). */
export type AnswerValue = string | number | boolean | string[];

/** Accepted form content: field name to value. */
export type AnswerContent = Record<string, AnswerValue>;

/** One property of a flat elicitation schema, as the spec allows it. */
export interface PrimitiveSchema {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: AnswerValue;
  // string
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  enum?: string[];
  enumNames?: string[];
  oneOf?: Array<{ const: string; title?: string }>;
  // number / integer
  minimum?: number;
  maximum?: number;
  // multi-select
  items?: { type?: 'string'; enum?: string[]; anyOf?: Array<{ const: string; title?: string }> };
  minItems?: number;
  maxItems?: number;
}

/** The `requestedSchema` of a form-mode question: one flat object. */
export interface FlatSchema {
  type: 'object';
  properties: Record<string, PrimitiveSchema>;
  required?: string[];
}

/** One reason a requested schema is refused. `path` is like `properties.age.minimum`; '' means the schema itself. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/** One reason an answer is refused. `field` is a property name; '' means the content as a whole. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The three outcomes a human can give. Decline and cancel are not errors. */
export type Action = 'accept' | 'decline' | 'cancel';

/** What goes back to the server for one question. */
export type Answer = { action: 'accept'; content?: AnswerContent } | { action: 'decline' } | { action: 'cancel' };

/** Which request caused a question. Null method: a legacy server asked outside any known call. */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** Where a question comes from: shown in every dialog and kept in history. */
export interface QuestionOrigin {
  /** Configured server name (the key in mcpServers). */
  server: string;
  era: 'modern' | 'legacy';
  method: CallMethod | null;
  /** Tool, prompt name or resource URI. */
  name: string | null;
  /** A short, safe, single-line summary of the call's arguments. */
  argumentsSummary?: string;
  /** The gateway agent that asked: what it says it is, then its connection: "claude-code 2.1.0 (stdio-3f9a1c)". */
  agent?: string;
  /**
   * Set when a gateway relayed the question over the approval channel: the
   * server, call, arguments and agent labels are what the gateway reported,
   * not something this app saw. Dialogs and the history say so.
   */
  reportedBy?: 'gateway';
  /** 1-based retry round (always 1 for legacy questions). */
  round: number;
  /** The inputRequests key (legacy: a generated one). */
  key: string;
  /**
   * Where this question stands in a round that asks several (modern era:
   * one input_required with several inputRequests): 1-based `index` of
   * `count`, and every key of the round in order. Absent for a round of one.
   * `roundId` is set when the round's questions are put all at once (the
   * app's queue): the dialog groups them, shows them one by one with a way
   * back, and answers them together when the last one is answered.
   */
  roundPosition?: { index: number; count: number; keys: string[]; roundId?: string };
  /**
   * Set on the questions of the last round the round limit allows: if the
   * server asks again after it, the call is stopped. Dialogs say so.
   */
  lastRound?: true;
  /** Set only when the user chose a time limit (Settings → Question time limit): minutes until it is cancelled. */
  timeLimitMinutes?: number;
  /** Set when a long-running task asks (dialogs say "Task 4f2… of deploy, running 3 min"). */
  task?: { taskId: string; startedAt: string };
  /** What the server's tool list says of the called tool (see ToolHints); absent when it says nothing. */
  toolHints?: ToolHints;
  /**
   * Set by the host alone when a server's MCP App asked to open a link (ui/open-link), not the server's call: the
   * dialog names the app, and the consent opens the link and ends the question (nothing is sent to the server).
   */
  app?: { resourceUri: string };
  /**
   * Set by the host alone on its own passkey step: this link is Countersign's confirmation page for the answer to
   * question `questionId`, which the person accepted and which needs their passkey (`reason` says why). Opening it is
   * the only way on; the page, not this dialog, confirms. Nothing of it is the server's.
   */
  passkeyStep?: { questionId: string; reason: string };
}

/**
 * A tool's annotations as its server reported them in tools/list: only hints
 * set explicitly to true, and read-only wins (destructive then means nothing).
 * They are the server's word, unchecked: dialogs say "the server marks this
 * tool destructive", never that it is.
 */
export interface ToolHints {
  destructive?: true;
  readOnly?: true;
  /**
   * The tool's listing carries `_meta["io.modelcontextprotocol/verified-approval"]` (SEP-2672's draft): the server
   * asks for passkey-verified approvals, so a passkey confirms its questions' accepts and the receipts go with the
   * retry.
   */
  verifiedApproval?: true;
}

/** Warnings the URL analysis can raise; see shared/url. */
export type UrlWarningCode =
  | 'punycode'
  | 'mixed-script'
  | 'confusable'
  | 'http-not-loopback'
  | 'credentials'
  | 'raw-ip'
  | 'too-long'
  | 'blocked-scheme'
  | 'unparseable';

export interface UrlWarning {
  code: UrlWarningCode;
  /** One plain English sentence for logs and the CLI; the UI localises by code. */
  message: string;
}

/** What the host knows about a URL before the human decides. Nothing is fetched to learn it. */
export interface UrlAnalysis {
  /** The URL exactly as the server sent it. */
  href: string;
  scheme: string;
  /** ASCII (xn--) form of the host; empty when there is none. */
  host: string;
  /** Unicode form of the host (equal to host when plain ASCII). */
  hostUnicode: string;
  /** Registrable domain (eTLD+1 by a built-in heuristic), for emphasis. */
  registrableDomain: string;
  /** Unicode form of registrableDomain (a suffix of hostUnicode). Optional: older producers leave it out. */
  registrableDomainUnicode?: string;
  /** True when the host is this computer (localhost, 127.0.0.0/8, [::1]). Optional: older producers leave it out. */
  loopback?: boolean;
  warnings: UrlWarning[];
  /** True when the link must not be opened at all (scheme or parse failure). */
  blocked: boolean;
  /**
   * True when the host fails the look-alike checks (mixed scripts, or letters
   * that read as another, ASCII, name): the dialog then shows the ASCII
   * (xn--) form as the headline and opening takes a second, deliberate step.
   * Optional: older producers leave it out.
   */
  lookalike?: boolean;
}

export interface FormQuestion {
  id: string;
  mode: 'form';
  origin: QuestionOrigin;
  message: string;
  requestedSchema: FlatSchema;
  /**
   * The server named an MCP App to draw this form (SEP-3118, `_meta.ui.resourceUri`, a `ui://` URI of the asking
   * server). A hint only: with Settings → App-drawn questions on, the app draws the form inside the host's dialog
   * and proposes values; the schema above and the host's own buttons decide (see shared/elicitation/app-form.ts).
   */
  appForm?: { resourceUri: string };
}

export interface UrlQuestion {
  id: string;
  mode: 'url';
  origin: QuestionOrigin;
  message: string;
  url: UrlAnalysis;
}

/** A question as the human (or a script) sees it. Never carries requestState. */
export type Question = FormQuestion | UrlQuestion;
