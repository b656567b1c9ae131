// Where sign-ins are kept: per MCP server URL, and within it per
// authorization-server issuer (SEP-2352: a client registration or a token is
// bound to the issuer that made it; a migrated server gets a fresh one).
// The app, the CLI and the gateway share one file in the data folder:
// `credentials/oauth.json`, 0600 in a 0700 folder.
//
// Encrypted at rest where the platform offers a keychain: the file's content
// is sealed with AES-256-GCM under a random 256-bit key that lives in the OS
// keychain (os-keychain.ts), never on disk. Where no keychain can be reached
// (a Linux box without a Secret Service, an SSH session without D-Bus) the
// file stays plain JSON protected by its permissions alone, and the
// description the UI and `auth status` show says exactly that. A plain file
// from an older version is encrypted the first time a keychain is reachable.
// An encrypted file is never rewritten in plain text: a process that cannot
// reach the keychain gets a clear error instead of the tokens, or a
// downgrade.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { ensurePrivateDir, readCheckedFile, writePrivateFile } from '../storage/private-files';
import type { StoredDpopKey } from './dpop-keys';
import { KeychainUnavailableError, OsKeychain, type KeyVault } from './os-keychain';

/** Tokens as kept: the SDK's, plus when they were saved (to compute expiry). */
export interface StoredTokens extends OAuthTokens {
  issuer?: string;
  /** Epoch ms the tokens were saved. */
  savedAt: number;
}

export interface IssuerCredentials {
  client?: OAuthClientInformationMixed & { issuer?: string };
  tokens?: StoredTokens;
  /** The DPoP key this issuer's tokens are bound to (RFC 9449), when it issues DPoP-bound tokens. */
  dpopKey?: StoredDpopKey;
}

/** Everything kept for one MCP server URL. */
export interface ServerCredentials {
  /** The issuer whose tokens are current (the one the last sign-in went to). */
  current?: string;
  issuers: Record<string, IssuerCredentials>;
}

/** How the store keeps what it keeps, for the UI and `auth status`. */
export interface StorageProtection {
  /** True when the content is encrypted at rest with a key held by the OS keychain. */
  encrypted: boolean;
  /** One plain sentence: where and how it is kept. */
  text: string;
  /** The technical reason and the file, behind a "Details" toggle (a platform error is not a first line). */
  details?: string;
}

export interface CredentialStore {
  /** One plain sentence for the UI and `auth status`: where and how it is kept (as far as known yet). */
  readonly description: string;
  /** The same, after finding out whether the keychain can be reached (a store without it is not encrypted). */
  describe?(): Promise<StorageProtection>;
  load(serverUrl: string): Promise<ServerCredentials | undefined>;
  save(serverUrl: string, value: ServerCredentials): Promise<void>;
  delete(serverUrl: string): Promise<void>;
}

/** The key a server's credentials are kept under: its URL without fragment. */
export function credentialKey(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.hash = '';
  return u.href;
}

/** Kept in memory only (tests, one-shot runs that must leave nothing behind). */
export class MemoryCredentialStore implements CredentialStore {
  readonly description = 'kept in memory for this run only';
  describe() {
    return Promise.resolve({ encrypted: false, text: this.description });
  }
  private readonly map = new Map<string, ServerCredentials>();
  async load(serverUrl: string) {
    const v = this.map.get(credentialKey(serverUrl));
    return v ? structuredClone(v) : undefined;
  }
  async save(serverUrl: string, value: ServerCredentials) {
    this.map.set(credentialKey(serverUrl), structuredClone(value));
  }
  async delete(serverUrl: string) {
    this.map.delete(credentialKey(serverUrl));
  }
}

interface FileShape {
  version: 1;
  servers: Record<string, ServerCredentials>;
}

/** The file as written when a keychain holds the key: everything sealed, nothing readable. */
interface SealedShape {
  version: 2;
  cipher: 'aes-256-gcm';
  /** Which keychain holds the key (informative; the key itself never leaves the keychain). */
  keychain: string;
  iv: string;
  tag: string;
  data: string;
}

/** Binds the ciphertext to its purpose: a sealed blob from elsewhere does not open as a credential store. */
const AAD = Buffer.from('countersign credential store v2');

function seal(key: Buffer, doc: FileShape, keychain: string): SealedShape {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD);
  const data = Buffer.concat([cipher.update(JSON.stringify(doc), 'utf8'), cipher.final()]);
  return {
    version: 2,
    cipher: 'aes-256-gcm',
    keychain,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/** The document, or undefined when the key is not the one it was sealed with or the file was altered. */
function unseal(key: Buffer, sealed: SealedShape): unknown {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isSealed(doc: unknown): doc is SealedShape {
  const d = doc as Partial<SealedShape> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    d.version === 2 &&
    d.cipher === 'aes-256-gcm' &&
    typeof d.iv === 'string' &&
    typeof d.tag === 'string' &&
    typeof d.data === 'string'
  );
}

function isPlain(doc: unknown): doc is FileShape {
  const d = doc as Partial<FileShape> | null;
  return typeof d === 'object' && d !== null && d.version === 1 && typeof d.servers === 'object' && d.servers !== null;
}

/** The credential store cannot be used from this process (the keychain holding its key is out of reach). */
export class CredentialStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialStoreError';
  }
}

export interface FileCredentialStoreOptions {
  /**
   * The keychain that holds the file's key. Default: the OS keychain
   * (os-keychain.ts). null: none, the file is plain JSON (0600 in 0700).
   */
  keychain?: KeyVault | null;
}

/** What this process found out about the keychain (once; a keychain that appears later counts at the next start). */
type Protection =
  { kind: 'keychain'; vault: KeyVault; key?: Buffer } | { kind: 'plain'; reason: string; cause?: string };

/**
 * A 0600 JSON file in a 0700 folder, sealed with a keychain-held key when a
 * keychain is reachable. Writes are atomic (temp file + rename); writes from
 * one process are serialised. Two processes signing in to the same server at
 * the same moment: the last write wins, which loses at most the other's
 * fresh sign-in (it is asked again), never corrupts the file.
 */
export class FileCredentialStore implements CredentialStore {
  private readonly file: string;
  private readonly vault: KeyVault | null;
  private chain: Promise<unknown> = Promise.resolve();
  private protection?: Promise<Protection>;
  private known?: StorageProtection;

  constructor(
    private readonly dir: string,
    options: FileCredentialStoreOptions = {},
  ) {
    this.file = join(dir, 'oauth.json');
    this.vault = options.keychain === undefined ? new OsKeychain(resolve(dir)) : options.keychain;
  }

  get description(): string {
    return this.known?.text ?? `a file only your user can read (${this.file}, mode 0600 in a 0700 folder)`;
  }

  async describe(): Promise<StorageProtection> {
    const p = await this.protect();
    this.known =
      p.kind === 'keychain'
        ? {
            encrypted: true,
            text:
              `encrypted (AES-256-GCM) with a key kept in ${p.vault.name}; ` +
              `the file ${this.file} is also mode 0600 in a 0700 folder`,
          }
        : {
            encrypted: false,
            text: p.cause
              ? 'not encrypted: no keychain is available, so tokens are kept unencrypted in a file only your user ' +
                'can read'
              : `not encrypted: ${p.reason}; a file only your user can read`,
            details:
              (p.cause ? `no OS keychain could be reached: ${p.cause}; ` : '') +
              `file ${this.file} (mode 0600 in a 0700 folder)`,
          };
    return this.known;
  }

  /** Find out, once, whether the keychain is reachable and holds a key. */
  private protect(): Promise<Protection> {
    this.protection ??= (async (): Promise<Protection> => {
      const vault = this.vault;
      if (!vault) return { kind: 'plain', reason: 'no keychain is used for this store' };
      try {
        const key = await vault.readKey();
        return key ? { kind: 'keychain', vault, key } : { kind: 'keychain', vault };
      } catch (e) {
        const cause = e instanceof KeychainUnavailableError ? e.reason : String(e);
        return { kind: 'plain', reason: `no OS keychain could be reached (${cause})`, cause };
      }
    })();
    return this.protection;
  }

  /** The key to seal with, made and put in the keychain on first use. */
  private async sealingKey(p: Protection & { kind: 'keychain' }): Promise<Buffer> {
    if (p.key) return p.key;
    const key = randomBytes(32);
    await p.vault.writeKey(key);
    // Read back: when two processes make the first key at the same moment,
    // the one the keychain kept is the one both seal with.
    p.key = (await p.vault.readKey()) ?? key;
    return p.key;
  }

  private async setAside(kind: string): Promise<void> {
    await rename(this.file, `${this.file}.${kind}-${Date.now()}`).catch(() => undefined);
  }

  private async read(): Promise<FileShape> {
    const text = await readCheckedFile(this.file);
    if (text === undefined) return { version: 1, servers: {} };
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = undefined;
    }
    const p = await this.protect();
    if (isPlain(doc)) {
      // A plain file (an older version, or written while no keychain was
      // reachable): sealed now that one is. The old bytes are replaced by the
      // atomic rename; the disk may still hold them until overwritten.
      if (p.kind === 'keychain') await this.write(doc);
      return doc;
    }
    if (isSealed(doc)) {
      if (p.kind !== 'keychain')
        throw new CredentialStoreError(
          `the sign-ins in ${this.file} are encrypted with a key kept in the OS keychain, ` +
            `which this process cannot reach (${p.cause ?? p.reason}); ` +
            'run Countersign where the keychain is available (your desktop session)',
        );
      let opened = p.key ? unseal(p.key, doc) : undefined;
      if (!isPlain(opened)) {
        // Another process may have put the first key in the keychain after this one looked.
        const fresh = await p.vault.readKey().catch(() => undefined);
        if (fresh && !fresh.equals(p.key ?? Buffer.alloc(0))) {
          opened = unseal(fresh, doc);
          if (isPlain(opened)) p.key = fresh;
        }
      }
      if (isPlain(opened)) return opened;
      // Not openable with the keychain's key (the key was removed from the
      // keychain, or the file was altered): set aside, never overwritten in place.
      await this.setAside(p.key ? 'undecryptable' : 'keyless');
      return { version: 1, servers: {} };
    }
    // A damaged file is set aside, never silently overwritten with its secrets lost in place.
    await this.setAside('damaged');
    return { version: 1, servers: {} };
  }

  private async write(doc: FileShape): Promise<void> {
    await ensurePrivateDir(this.dir);
    const p = await this.protect();
    const body =
      p.kind === 'keychain' ? JSON.stringify(seal(await this.sealingKey(p), doc, p.vault.name)) : JSON.stringify(doc);
    await writePrivateFile(this.file, body);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  load(serverUrl: string) {
    return this.serial(async () => (await this.read()).servers[credentialKey(serverUrl)]);
  }

  save(serverUrl: string, value: ServerCredentials) {
    return this.serial(async () => {
      const doc = await this.read();
      doc.servers[credentialKey(serverUrl)] = value;
      await this.write(doc);
    });
  }

  delete(serverUrl: string) {
    return this.serial(async () => {
      const doc = await this.read();
      delete doc.servers[credentialKey(serverUrl)];
      if (Object.keys(doc.servers).length === 0) await rm(this.file, { force: true });
      else await this.write(doc);
    });
  }
}
