// The approval channel between a gateway (asking) and the running app (the
// human, and the one history writer): newline-delimited JSON frames over a
// local socket only this user (or the approval share's group) can open.
// Every frame is size-capped and schema-checked on arrival, whichever side
// reads it; a peer that sends anything else is dropped with a logged reason
// (and, once it has proved the key, one fault in the app's history).
//
// The gateway writes no history entry of its own: the app records what it
// issued and saw on the connection (each question and its outcome, each
// sign-in), and takes from the gateway only what it cannot see: one end per
// call that asked on this connection, one end per sign-in the human accepted
// there, each bounded in size.
//
//   gateway -> app   {type:'hello', protocol, nonce}            first frame, always
//   app -> gateway   {type:'challenge', nonce, proof}           the app proves it knows the key
//   gateway -> app   {type:'prove', proof}                      only once the app's proof checked out
//   app -> gateway   {type:'welcome', protocol, app}            or {type:'bye', reason} and close
//   (the handshake, and what it does not hold against: ./handshake.ts)
//   gateway -> app   {type:'ask', id, question, context, call, requestState?}
//                    the server's question as it sent it, and where it came from: the app's gate is the one
//                    that builds and checks it (./remote-questions.ts has the gateway's half)
//   app -> gateway   {type:'answer', id, answer, decidedBy, urlOpened?}   recorded and checked BEFORE it is sent
//   app -> gateway   {type:'withdrawn', id, reason, code?}      no answer: cancelled, app closing, record failed,
//                                                               code 'not-visible': nobody could see the question,
//                                                               code 'invalid-schema', 'invalid-answer' or 'protocol':
//                                                               the app's gate refused the question or the answer
//                                                               (reason: the gate's sentence, cut to the wire's limit)
//   gateway -> app   {type:'cancel', id}                        the agent cancelled: close the dialog
//   gateway -> app   {type:'call-ended', callId, outcome, ...}   once per call that asked on this connection
//   gateway -> app   {type:'sign-in', id, signIn}               a server needs a sign-in: the app's dialog
//   gateway -> app   {type:'sign-in-open', id}                  after accept: the listener is ready, open the link
//   gateway -> app   {type:'sign-in-end', id, outcome, error?}  once per sign-in accepted on this connection
import { z } from 'zod';
import { answerSchema } from '../../../shared/host-api/contract';
import { CALL_OUTCOMES, DECIDED_BY } from '../../../shared/history/journal-types';
import { MAX_QUESTION_TIME_LIMIT_MINUTES } from '../../../shared/question-time-limit';
import { LIMITS } from '../limits';
import { NONCE_PATTERN, PROOF_PATTERN } from './handshake';

/** Name and version of this wire protocol; both sides must agree exactly. */
export const APPROVAL_PROTOCOL = 'countersign-approval/5';

/** Largest frame either side accepts (bytes, newline excluded). */
export const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * The wire's text limits, in one object: the schemas below and the gateway's cutters (remote-questions.ts) read
 * it, so a value the gateway shortened always fits what the app accepts.
 */
export const WIRE_LIMITS = {
  server: 200,
  protocolVersion: 40,
  /** A tool, prompt name or resource URI. */
  name: 2000,
  agent: 200,
  key: 500,
  argumentsSummary: 500,
  /** A call's arguments as JSON, in characters: larger ones stay in the gateway (a passkey cannot then confirm). */
  arguments: 64 * 1024,
  /** Why a question was withdrawn or a peer refused: the app cuts its sentences to this. */
  reason: 1000,
  round: 10_000,
  roundQuestions: 1000,
} as const;

const text = (max: number) => z.string().max(max);
const nonce = z.string().regex(NONCE_PATTERN, 'a nonce is 43 base64url characters');
const proof = z.string().regex(PROOF_PATTERN, 'a proof is 64 hex digits');
const id = z.string().min(1).max(100);

const callMethod = z.enum(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The call a question belongs to, as the gateway reports it. Its arguments travel (up to WIRE_LIMITS.arguments)
 * because a passkey payload hashes exactly them; the tool's hints because they decide whether one is needed.
 */
export const wireCallSchema = z.strictObject({
  callId: id,
  server: text(WIRE_LIMITS.server).min(1),
  era: z.enum(['modern', 'legacy']),
  protocolVersion: text(WIRE_LIMITS.protocolVersion),
  method: callMethod,
  name: text(WIRE_LIMITS.name),
  agent: text(WIRE_LIMITS.agent).optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** The arguments were too large to travel: a passkey cannot confirm this call's questions. */
  argumentsOmitted: z.literal(true).optional(),
  toolHints: z
    .strictObject({
      destructive: z.literal(true).optional(),
      readOnly: z.literal(true).optional(),
      verifiedApproval: z.literal(true).optional(),
    })
    .optional(),
});
export type WireCall = z.infer<typeof wireCallSchema>;

const stateDigest = z.strictObject({ length: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** Where a question comes from, as the gateway reports it: labels the app shows marked as the gateway's word. */
export const questionContextSchema = z.strictObject({
  server: text(WIRE_LIMITS.server).min(1),
  era: z.enum(['modern', 'legacy']),
  method: callMethod.nullable(),
  name: text(WIRE_LIMITS.name).nullable(),
  argumentsSummary: text(WIRE_LIMITS.argumentsSummary).optional(),
  round: z.number().int().min(1).max(WIRE_LIMITS.round),
  key: text(WIRE_LIMITS.key),
  timeLimitMinutes: z.number().int().min(1).max(MAX_QUESTION_TIME_LIMIT_MINUTES).optional(),
  roundPosition: z
    .strictObject({
      index: z.number().int().min(1).max(WIRE_LIMITS.roundQuestions),
      count: z.number().int().min(1).max(WIRE_LIMITS.roundQuestions),
      keys: z.array(text(WIRE_LIMITS.key)).max(WIRE_LIMITS.roundQuestions),
      roundId: id.optional(),
    })
    .optional(),
  lastRound: z.literal(true).optional(),
});

/**
 * What the server asked, as it sent it (the elicitation params' fields the gate reads). Nothing here is checked
 * but the frame's size: the app's gate builds the question from it and refuses what it cannot show, exactly as
 * for the app's own calls.
 */
const rawQuestionSchema = z.strictObject({
  mode: z.unknown().optional(),
  message: z.unknown().optional(),
  requestedSchema: z.unknown().optional(),
  url: z.unknown().optional(),
});
export type RawQuestion = z.infer<typeof rawQuestionSchema>;
export type QuestionContext = z.infer<typeof questionContextSchema>;

const decidedBy = z.enum(DECIDED_BY);

// A sign-in a server behind the gateway needs (issue 10 §4): shown in the
// app's queue. The app re-analyses the link itself. Its answer: accept (Open
// in browser) or cancel. On accept the gateway arms its loopback listener and
// sends `sign-in-open`; only then does the app open the link, through its own
// open-external gate. A later `withdrawn` for the id: the human cancelled the
// wait; a `cancel` from the gateway: the wait is over (or the call went away).
const signInSchema = z.strictObject({
  server: text(200).min(1),
  call: z.strictObject({ method: text(100), name: text(2000), agent: text(200).optional() }).nullable(),
  issuer: text(LIMITS.urlChars),
  url: z.strictObject({ href: text(LIMITS.urlChars) }),
  scopes: z.array(text(500)).max(100),
  stepUp: z.boolean(),
});
export type WireSignIn = z.infer<typeof signInSchema>;

/** Frames the gateway sends. */
export const gatewayFrameSchema = z.discriminatedUnion('type', [
  // The protocol is checked before the nonce, so an older gateway gets a clear "bye".
  z.strictObject({ type: z.literal('hello'), protocol: text(100), nonce: text(100) }),
  z.strictObject({ type: z.literal('prove'), proof }),
  z.strictObject({
    type: z.literal('ask'),
    id,
    question: rawQuestionSchema,
    context: questionContextSchema,
    call: wireCallSchema.nullable(),
    requestState: stateDigest.optional(),
  }),
  z.strictObject({ type: z.literal('cancel'), id }),
  z.strictObject({ type: z.literal('sign-in'), id, signIn: signInSchema }),
  z.strictObject({ type: z.literal('sign-in-open'), id }),
  z.strictObject({
    type: z.literal('sign-in-end'),
    id,
    outcome: z.enum(['completed', 'failed', 'cancelled']),
    error: text(LIMITS.errorLineChars).optional(),
  }),
  // The call is the one the app saw in this connection's questions; only how it ended is the gateway's word.
  z.strictObject({
    type: z.literal('call-ended'),
    callId: id,
    outcome: z.enum(CALL_OUTCOMES),
    isError: z.boolean().optional(),
    error: text(LIMITS.errorLineChars).optional(),
    rounds: z.number().int().min(0).max(10_000),
  }),
]);
export type GatewayFrame = z.infer<typeof gatewayFrameSchema>;

/** What the agent is told when the app runs but nobody can see it (the app adds the reason). */
export const NOT_VISIBLE = 'approval app started but not visible: nothing was done';

/**
 * Why a question was withdrawn, where the gateway must say more than "withdrawn": nobody could see it, or the
 * app's gate refused it (the host error's code, so the agent gets the same sentence as for a local refusal).
 */
export const WITHDRAWN_CODES = [
  'not-visible',
  'invalid-schema',
  'invalid-answer',
  'protocol',
  'passkey-needed',
] as const;
export type WithdrawnCode = (typeof WITHDRAWN_CODES)[number];

/** Frames the app sends. */
export const appFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('challenge'), nonce, proof }),
  z.strictObject({ type: z.literal('welcome'), protocol: text(100), app: text(100) }),
  z.strictObject({ type: z.literal('bye'), reason: text(WIRE_LIMITS.reason) }),
  z.strictObject({
    type: z.literal('answer'),
    id,
    answer: answerSchema,
    decidedBy,
    urlOpened: z.boolean().optional(),
    /** The person's passkey confirmed the accept: its receipt, for a server that asks for one (checked there). */
    receipt: z.unknown().optional(),
  }),
  z.strictObject({
    type: z.literal('withdrawn'),
    id,
    reason: text(WIRE_LIMITS.reason),
    code: z.enum(WITHDRAWN_CODES).optional(),
  }),
]);
export type AppFrame = z.infer<typeof appFrameSchema>;

/** Parse one line with `schema`: the frame, or a one-line reason to drop the peer. */
export function parseFrame<T>(
  line: string,
  schema: z.ZodType<T>,
): { ok: true; frame: T } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'a frame is not JSON' };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(frame)';
  return { ok: false, reason: `malformed frame at ${where}: ${issue?.message ?? 'invalid'}` };
}

/** One frame as a line. */
export function encodeFrame(frame: GatewayFrame | AppFrame): string {
  return `${JSON.stringify(frame)}\n`;
}

/**
 * Splits a byte stream into lines, refusing any line longer than the cap
 * before buffering it whole (a peer cannot make the reader hold more than
 * MAX_FRAME_BYTES).
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  /** Feed bytes; returns the complete lines, or throws when a line is too long. */
  push(data: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
      const piece = data.subarray(start, nl);
      if (this.size + piece.length > this.maxBytes) throw new FrameTooLargeError(this.maxBytes);
      const line = this.size === 0 ? piece.toString('utf8') : Buffer.concat([...this.chunks, piece]).toString('utf8');
      this.chunks = [];
      this.size = 0;
      if (line.trim() !== '') lines.push(line);
      start = nl + 1;
    }
    const rest = data.subarray(start);
    if (rest.length > 0) {
      if (this.size + rest.length > this.maxBytes) throw new FrameTooLargeError(this.maxBytes);
      this.chunks.push(Buffer.from(rest));
      this.size += rest.length;
    }
    return lines;
  }
}

/** A peer sent a line longer than the cap. */
export class FrameTooLargeError extends Error {
  constructor(max: number) {
    super(`a frame is longer than ${max} bytes`);
  }
}
