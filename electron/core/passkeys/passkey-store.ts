// The registered passkeys: public keys only (a passkey's private key never
// leaves its authenticator), in passkeys/passkeys.json under the data folder,
// 0600 in a 0700 folder through the storage module every private file uses.
// A revoked key stays listed with the time it was revoked, so a receipt it
// signed is refused by name rather than as an unknown key.
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, readCheckedFile, writePrivateFile } from '../storage/private-files';

const record = z.object({
  name: z.string(),
  /** The credential id, base64url. */
  id: z.string().min(1),
  /** The COSE public key, base64url. */
  publicKey: z.string().min(1),
  counter: z.number().int().nonnegative(),
  created: z.string(),
  revoked: z.string().optional(),
});

/** One registered passkey. */
export type PasskeyRecord = z.infer<typeof record>;

const fileSchema = z.object({ version: z.literal(1), passkeys: z.array(record) });

/** The store's file in a data folder. */
export function passkeysFile(dataDir: string): string {
  return join(dataDir, 'passkeys', 'passkeys.json');
}

/** The passkeys of one data folder; each change is written before it returns. */
export class PasskeyStore {
  private constructor(
    readonly path: string,
    private passkeys: PasskeyRecord[],
  ) {}

  /** Open (or start) the store of `dataDir`; a file that is not a store is an error naming it. */
  static async open(dataDir: string): Promise<PasskeyStore> {
    const path = passkeysFile(dataDir);
    await ensurePrivateDir(join(dataDir, 'passkeys'));
    const text = await readCheckedFile(path);
    if (text === undefined) return new PasskeyStore(path, []);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${path} is not JSON, so no passkey can be read from it`);
    }
    const result = fileSchema.safeParse(parsed);
    if (!result.success) throw new Error(`${path} is not a passkey store (version 1)`);
    return new PasskeyStore(path, result.data.passkeys);
  }

  /** Every passkey, revoked ones included. */
  list(): readonly PasskeyRecord[] {
    return this.passkeys;
  }

  /** The passkey with credential id `id`, revoked or not. */
  get(id: string): PasskeyRecord | undefined {
    return this.passkeys.find((p) => p.id === id);
  }

  /** Add a newly registered passkey. */
  async add(passkey: Omit<PasskeyRecord, 'revoked'>): Promise<void> {
    if (this.get(passkey.id)) throw new Error(`a passkey with credential id ${passkey.id} is registered already`);
    this.passkeys = [...this.passkeys, { ...passkey }];
    await this.save();
  }

  /** Revoke by credential id: from then on nothing it signs is accepted. */
  async revoke(id: string, now: number = Date.now()): Promise<void> {
    const found = this.get(id);
    if (!found) throw new Error(`no passkey with credential id ${id} is registered`);
    if (found.revoked) return;
    this.passkeys = this.passkeys.map((p) => (p.id === id ? { ...p, revoked: new Date(now).toISOString() } : p));
    await this.save();
  }

  /** Record the signature counter an accepted assertion reported. */
  async setCounter(id: string, counter: number): Promise<void> {
    this.passkeys = this.passkeys.map((p) => (p.id === id ? { ...p, counter } : p));
    await this.save();
  }

  private async save(): Promise<void> {
    await writePrivateFile(this.path, `${JSON.stringify({ version: 1, passkeys: this.passkeys }, null, 2)}\n`);
  }
}
