// The live verifier: issues each approval's payload and accepts one
// assertion for it, checked against the call exactly as it is about to be
// sent. What it adds to the offline checks is what only the issuing process
// knows: that the payload is the one it issued, that it has not expired, and
// that its id was never used.
import {
  buildApprovalPayload,
  callHashes,
  canonicalJson,
  type ApprovalPayload,
  type ApprovedCall,
  type ServerIdentity,
} from './payload';
import type { PasskeyStore } from './passkey-store';
import { type Receipt, RECEIPT_FORMAT } from './receipt';
import { checkOrigin, checkSignedPayload, PasskeyRefusal, readAssertion, readClientData } from './signed-payload';

const HASHED = {
  argumentsHash: 'arguments of the call differ from the ones',
  questionHash: 'question differs from the one',
  answerHash: 'answer differs from the one',
} as const;

/** Issues approval payloads for one ceremony origin and verifies the assertions made for them. */
export class ApprovalVerifier {
  private readonly issued = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(
    private readonly store: PasskeyStore,
    /** http://localhost:PORT of the ceremony page. */
    readonly origin: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh payload for `call`; only this verifier will accept an assertion over it. */
  issue(call: ApprovedCall): ApprovalPayload {
    const payload = buildApprovalPayload(call, this.origin, this.now());
    this.issued.set(payload.id, canonicalJson(payload));
    return payload;
  }

  /**
   * Accept `response` (a posted assertion: any value, checked here) as the
   * person's passkey approval of `payload` for `call` (the call as it will be
   * sent), or throw a PasskeyRefusal saying why not.
   * An accepted id is used up: the same assertion is refused the second time.
   */
  async verify(payload: ApprovalPayload, response: unknown, call: ApprovedCall): Promise<Receipt> {
    const parts = readAssertion(response);
    checkOrigin(readClientData(parts.clientDataJSON), this.origin, 'webauthn.get');
    if (this.used.has(payload.id))
      throw new PasskeyRefusal(
        `refused: the approval ${payload.id} was used already; an assertion is accepted once (this is a replay)`,
      );
    const issued = this.issued.get(payload.id);
    if (issued === undefined) throw new PasskeyRefusal(`refused: no approval with id ${payload.id} was issued here`);
    if (canonicalJson(payload) !== issued)
      throw new PasskeyRefusal(
        `refused: the payload differs from the one issued for approval ${payload.id} ` +
          `(${changedFields(issued, payload).join(', ')}), so what it says is not ` +
          'what the person was shown and signed',
      );
    const hashes = callHashes(call);
    for (const [field, what] of Object.entries(HASHED) as [keyof typeof HASHED, string][])
      if (hashes[field] !== payload[field])
        throw new PasskeyRefusal(
          `refused: the ${what} the person approved ` + `(${field} ${payload[field]}, the call’s ${hashes[field]})`,
        );
    if (call.tool !== payload.tool || canonicalJson(call.server) !== canonicalJson(payload.server))
      throw new PasskeyRefusal(
        `refused: the call goes to ${describe(call.server, call.tool)}, ` +
          `but the person approved ${describe(payload.server, payload.tool)}`,
      );
    const now = this.now();
    if (now > Date.parse(payload.expiresAt))
      throw new PasskeyRefusal(
        `refused: the approval expired at ${payload.expiresAt} (60 s after it was issued), ` +
          `${Math.round((now - Date.parse(payload.expiresAt)) / 1000)} s before it was checked`,
      );
    const { passkey, counter } = await checkSignedPayload(
      payload,
      parts,
      this.origin,
      this.store.list(),
      (p) => p.counter,
    );
    this.used.add(payload.id);
    this.issued.delete(payload.id);
    await this.store.setCounter(passkey.id, counter);
    return { format: RECEIPT_FORMAT, payload, assertion: parts };
  }
}

function describe(server: ServerIdentity, tool: string): string {
  const target = 'url' in server ? server.url : server.command;
  return `${JSON.stringify(tool)} of ${JSON.stringify(server.name)} (${JSON.stringify(target)})`;
}

function changedFields(issued: string, given: ApprovalPayload): string[] {
  const before = new Map<string, unknown>(Object.entries(JSON.parse(issued) as object));
  const after = new Map<string, unknown>(Object.entries(given));
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
    (k) => canonicalJson(before.get(k) ?? null) !== canonicalJson(after.get(k) ?? null),
  );
  return changed.length ? changed.map((k) => `${k} changed`) : ['its form changed'];
}
