// Where sign-ins are kept: per MCP server URL, and within it per
// authorization-server issuer (SEP-2352: a client registration or a token is
// bound to the issuer that made it; a migrated server gets a fresh one).
// The app, the CLI and the gateway share one file in the data folder:
// `credentials/oauth.json`, 0600 in a 0700 folder. It is NOT encrypted: no
// OS keychain library installs here without a native rebuild, so the file's
// permissions are the protection, and the UI and docs say so.
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { ensurePrivateDir, writePrivateFile } from '../storage/private-files';
import type { StoredDpopKey } from './dpop-keys';

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

export interface CredentialStore {
  /** One plain sentence for the UI and `auth status`: where and how it is kept. */
  readonly description: string;
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

/**
 * A 0600 JSON file in a 0700 folder. Writes are atomic (temp file + rename);
 * writes from one process are serialised. Two processes signing in to the
 * same server at the same moment: the last write wins, which loses at most
 * the other's fresh sign-in (it is asked again), never corrupts the file.
 */
export class FileCredentialStore implements CredentialStore {
  readonly description: string;
  private readonly file: string;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string) {
    this.file = join(dir, 'oauth.json');
    this.description = `not encrypted: a file only your user can read (${this.file}, mode 0600 in a 0700 folder)`;
  }

  private async read(): Promise<FileShape> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, servers: {} };
      throw e;
    }
    try {
      const doc = JSON.parse(text) as FileShape;
      if (doc && doc.version === 1 && typeof doc.servers === 'object' && doc.servers) return doc;
    } catch {
      /* fall through */
    }
    // A damaged file is set aside, never silently overwritten with its secrets lost in place.
    await rename(this.file, `${this.file}.damaged-${Date.now()}`).catch(() => undefined);
    return { version: 1, servers: {} };
  }

  private async write(doc: FileShape): Promise<void> {
    await ensurePrivateDir(this.dir);
    await writePrivateFile(this.file, JSON.stringify(doc));
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
