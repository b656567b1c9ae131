// Every bound on what a server or a peer can make the host hold, in one
// place. Each limit, when reached, ends the request with a clear error naming
// the limit, never silently; the question gate applies the per-question ones,
// so the app's own calls, the CLI and gateway questions relayed to the app
// all get the same bounds.

/** The host's input limits, with their defaults. */
export const LIMITS = {
  /** Questions (inputRequests keys) one input_required round may carry. */
  questionsPerRound: 50,
  /** elicitation/create requests a legacy server may send during one call. */
  legacyQuestionsPerCall: 50,
  /** Characters of a question's message (what the dialog shows). */
  messageChars: 20_000,
  /** Characters of a form question's requestedSchema, as JSON. */
  schemaChars: 64 * 1024,
  /** Characters of a URL question's link (never shortened: shown whole or refused). */
  urlChars: 65_536,
  /**
   * Questions waiting for the human at once, per server: the app's own calls
   * and every gateway's, counted together. At least questionsPerRound: the
   * app is handed a whole round at once.
   */
  pendingPerServer: 64,
  /** Questions waiting at once, per gateway connection on the approval socket. */
  pendingPerPeer: 64,
  /**
   * Calls one gateway connection may have asked about and not yet ended
   * (each waits for its one call end): a peer naming more is dropped.
   */
  callsPerPeer: 1_024,
  /** Gateway connections the approval socket holds at once. */
  approvalPeers: 32,
  /** Characters of one error line (a server's error message, a fault detail). */
  errorLineChars: 2_000,
  /** Bytes of a server's `envFile` (a .env file of a few variables; anything larger is a mistake). */
  envFileBytes: 1_000_000,
  /**
   * Nesting depth (objects and arrays) of one message from a server. Deeper
   * data overflows the stack of whatever walks it recursively (JSON.stringify
   * for the CLI's --json, the web shell and the gateway's reply; structured
   * clone for IPC; the renderer's result view): 5,000 levels gave "Maximum
   * call stack size exceeded", or a gateway agent that never got an answer.
   */
  messageDepth: 256,
} as const;

/**
 * The nesting depth of a parsed JSON value, counted without recursion (the
 * value may be too deep for the stack), and given up on past `max`: returns
 * a number > max as soon as the limit is passed.
 */
export function jsonDepth(value: unknown, max: number = LIMITS.messageDepth): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** `text` cut to `max` characters, saying how much was left out. */
export function capLine(text: string, max: number = LIMITS.errorLineChars): string {
  if (text.length <= max) return text;
  const note = ` … (${text.length - max} more characters cut)`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}
