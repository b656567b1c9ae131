// `countersign receipt verify <file>`: checks a passkey receipt offline
// against the passkeys registered in the data folder, and says what a valid
// receipt proves and what it does not. Every string of the receipt is the
// file's, so it is printed escaped (the CLI io goes through terminalText).
import { readFile } from 'node:fs/promises';
import { LINE_MAX, terminalText } from '../../shared/terminal-text';
import { PasskeyStore } from '../core/passkeys/passkey-store';
import {
  parseReceipt,
  RECEIPT_DOES_NOT_PROVE,
  RECEIPT_PROVES,
  verifyReceipt,
  type Receipt,
} from '../core/passkeys/receipt';
import { hashOf } from '../core/passkeys/payload';
import { PasskeyRefusal } from '../core/passkeys/signed-payload';
import { linesFromEnd, parseEntryLine } from '../core/history/tail-reader';
import type { AnswerEntry } from '../../shared/history/journal-types';
import { errorLine, type CliIo } from './io';
import { dataDir, historyDir } from './paths';

const USAGE = `usage: countersign receipt verify <file>
       countersign receipt verify --entry SEQ

Checks a passkey receipt offline against the passkeys registered in the data
folder: an exported JSON file, or the receipt kept with history entry SEQ (the
answer's seq, as \`countersign history\` lists it; the recorded answer must be
the one the passkey signed). Exit 0: valid; 1: refused, with the reason; 2: usage.`;

/** Receipts are small: a few hundred bytes of payload and a signature. */
const MAX_RECEIPT_BYTES = 1024 * 1024;

/** Run `countersign receipt …`; returns the exit code. */
export async function runReceiptCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, file, ...extra] = argv;
  if (sub === '--help' || sub === '-h') {
    io.stdout(USAGE);
    return 0;
  }
  const entrySeq = file === '--entry' && extra.length === 1 && /^[1-9][0-9]{0,15}$/.test(extra[0]!) ? extra[0] : null;
  if (
    sub !== 'verify' ||
    file === undefined ||
    (entrySeq === null && extra.length > 0) ||
    (file === '--entry' && !entrySeq)
  ) {
    io.stderr(USAGE);
    return 2;
  }
  let value: unknown;
  let recorded: AnswerEntry | undefined;
  try {
    if (entrySeq !== null) {
      recorded = await answerEntryAt(historyDir(io.env), Number(entrySeq));
      value = recorded.passkey?.receipt;
      const step = recorded.passkey ? `its passkey step: ${recorded.passkey.status}` : 'it needed no passkey';
      if (value === undefined) throw new Error(`history entry ${entrySeq} holds no receipt (${step})`);
    } else {
      const bytes = await readFile(file);
      if (bytes.length > MAX_RECEIPT_BYTES) throw new Error(`${file} is larger than a receipt can be`);
      value = JSON.parse(bytes.toString('utf8'));
    }
  } catch (e) {
    io.stderr(errorLine(`cannot read the receipt: ${e instanceof Error ? e.message : String(e)}`));
    return entrySeq !== null ? 1 : 2;
  }
  try {
    const receipt = parseReceipt(value);
    if (recorded) checkRecordedAnswer(recorded, receipt);
    const store = await PasskeyStore.open(dataDir(io.env));
    const passkey = await verifyReceipt(receipt, store.list());
    const p = receipt.payload;
    const one = (text: string) => terminalText(text, { max: LINE_MAX });
    const target = 'url' in p.server ? `url ${p.server.url}` : `command ${p.server.command}`;
    io.stdout(
      [
        `valid: signed by the passkey ${one(JSON.stringify(passkey.name))} (credential id ${one(passkey.id)})`,
        `  server:    ${one(p.server.name)} (${one(target)})`,
        `  tool:      ${one(p.tool)}`,
        `  arguments: ${p.argumentsHash}`,
        `  question:  ${p.questionHash}`,
        `  answer:    ${p.answerHash}`,
        `  ${p.requestStateHash ? `requestState: ${p.requestStateHash}` : `nonce:     ${one(p.nonce ?? '')}`}`,
        `  issued:    ${p.issuedAt}, expires ${p.expiresAt}`,
        `  id:        ${one(p.id)}, at ${one(p.origin)}`,
        ...(recorded
          ? [
              recorded.content !== undefined
                ? `  history:   entry ${recorded.seq}: the recorded answer is the one the passkey signed`
                : `  history:   entry ${recorded.seq}: its answer is redacted, so only the signature was checked`,
            ]
          : []),
        'what it proves:',
        ...RECEIPT_PROVES.map((line) => `  - ${line}`),
        'what it does not prove:',
        ...RECEIPT_DOES_NOT_PROVE.map((line) => `  - ${line}`),
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    io.stderr(errorLine(e instanceof Error ? e.message : String(e)));
    return 1;
  }
}

/** The answer entry `seq` of the journal in `dir`, read from the end (constant memory); throws when it is none. */
async function answerEntryAt(dir: string, seq: number): Promise<AnswerEntry> {
  for await (const lines of linesFromEnd(dir))
    for (const line of lines) {
      const entry = parseEntryLine(line.text);
      if (!entry || entry.seq > seq) continue;
      if (entry.seq < seq) throw new Error(`history entry ${seq} was not found`);
      if (entry.kind !== 'answer') throw new Error(`history entry ${seq} is a ${entry.kind} entry, not an answer`);
      return entry;
    }
  throw new Error(`history entry ${seq} was not found`);
}

/** A receipt kept with an answer must sign that very answer (when its content is kept: not redacted). */
function checkRecordedAnswer(entry: AnswerEntry, receipt: Receipt): void {
  if (entry.action !== 'accept') throw new PasskeyRefusal(`refused: history entry ${entry.seq} is not an accept`);
  if (entry.content === undefined && entry.redacted !== undefined) return;
  const answer =
    entry.urlOpened !== undefined ? { action: 'accept' } : { action: 'accept', content: entry.content ?? {} };
  if (hashOf(answer) !== receipt.payload.answerHash)
    throw new PasskeyRefusal(
      `refused: the answer history entry ${entry.seq} records is not the one the passkey signed ` +
        `(${hashOf(answer)}, signed ${receipt.payload.answerHash})`,
    );
}
