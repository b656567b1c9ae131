// `countersign receipt verify <file>`: checks a passkey receipt offline
// against the passkeys registered in the data folder, and says what a valid
// receipt proves and what it does not. Every string of the receipt is the
// file's, so it is printed escaped (the CLI io goes through terminalText).
import { readFile } from 'node:fs/promises';
import { LINE_MAX, terminalText } from '../../shared/terminal-text';
import { PasskeyStore } from '../core/passkeys/passkey-store';
import { parseReceipt, RECEIPT_DOES_NOT_PROVE, RECEIPT_PROVES, verifyReceipt } from '../core/passkeys/receipt';
import { errorLine, type CliIo } from './io';
import { dataDir } from './paths';

const USAGE = `usage: countersign receipt verify <file>

Checks a passkey receipt (an exported JSON file) offline against the passkeys
registered in the data folder. Exit 0: valid; 1: refused, with the reason; 2: usage.`;

/** Receipts are small: a few hundred bytes of payload and a signature. */
const MAX_RECEIPT_BYTES = 1024 * 1024;

/** Run `countersign receipt …`; returns the exit code. */
export async function runReceiptCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, file, ...extra] = argv;
  if (sub === '--help' || sub === '-h') {
    io.stdout(USAGE);
    return 0;
  }
  if (sub !== 'verify' || file === undefined || extra.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  let value: unknown;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_RECEIPT_BYTES) throw new Error(`${file} is larger than a receipt can be`);
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    io.stderr(errorLine(`cannot read the receipt: ${e instanceof Error ? e.message : String(e)}`));
    return 2;
  }
  try {
    const receipt = parseReceipt(value);
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
