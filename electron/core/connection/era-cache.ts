// Remembers, per server, which protocol era it spoke, so a reconnect skips
// the `server/discover` probe. Per the SDK's own warning a stale LEGACY
// verdict would succeed silently forever (an upgraded server still answers
// `initialize`), so legacy verdicts expire; a stale MODERN verdict fails
// loudly at the first request and the connector then evicts it.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DiscoverResult } from '@modelcontextprotocol/client';
import { isStdioEntry, type ServerEntry } from '../config/server-config';
import { PrivateStorageError, readCheckedFile } from '../storage/private-files';

/** A cached verdict with the time it was learned. */
export type EraVerdict = { era: 'modern'; discover: DiscoverResult; at: number } | { era: 'legacy'; at: number };

/** Storage for era verdicts, keyed by what identifies a server process or origin. */
export interface EraCache {
  get(key: string): EraVerdict | undefined;
  set(key: string, verdict: EraVerdict): void;
  delete(key: string): void;
}

/** How long a legacy verdict is trusted before the server is probed again. */
export const LEGACY_VERDICT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The cache key of a server: for stdio everything that decides which program
 * runs (command, args, cwd, env); for HTTP the URL. Hashed so that secrets in
 * env or headers never land in a cache file.
 */
export function eraCacheKey(entry: ServerEntry): string {
  const identity = isStdioEntry(entry)
    ? ['stdio', entry.command, entry.args ?? [], entry.cwd ?? '', Object.entries(entry.env ?? {}).sort()]
    : ['http', entry.url];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

/** True while a verdict may still be used. */
export function isFresh(verdict: EraVerdict, now = Date.now()): boolean {
  return verdict.era === 'modern' || now - verdict.at < LEGACY_VERDICT_TTL_MS;
}

/** In-memory cache: one per host process (the CLI, tests). */
export class MemoryEraCache implements EraCache {
  protected readonly map = new Map<string, EraVerdict>();
  get(key: string): EraVerdict | undefined {
    return this.map.get(key);
  }
  set(key: string, verdict: EraVerdict): void {
    this.map.set(key, verdict);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

/** A cache kept in a JSON file (the desktop app's data folder); writes are atomic. */
export class FileEraCache extends MemoryEraCache {
  private writing: Promise<void> = Promise.resolve();
  private constructor(private readonly file: string) {
    super();
  }

  /** Load the file if present; a missing or unreadable file starts empty. */
  static async open(file: string): Promise<FileEraCache> {
    const cache = new FileEraCache(file);
    try {
      const text = await readCheckedFile(file);
      const data = (text === undefined ? {} : JSON.parse(text)) as Record<string, EraVerdict>;
      for (const [k, v] of Object.entries(data))
        if (v && (v.era === 'modern' || v.era === 'legacy')) cache.map.set(k, v);
    } catch (e) {
      // Someone else's file is refused like every other in the data folder.
      if (e instanceof PrivateStorageError) throw e;
      // A cache is only an optimisation: a corrupt file costs one probe, nothing more.
    }
    return cache;
  }

  override set(key: string, verdict: EraVerdict): void {
    super.set(key, verdict);
    this.persist();
  }
  override delete(key: string): void {
    super.delete(key);
    this.persist();
  }

  /** Resolves when every write so far is on disk. */
  flush(): Promise<void> {
    return this.writing;
  }

  private persist(): void {
    const snapshot = JSON.stringify(Object.fromEntries(this.map));
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
        const tmp = `${this.file}.tmp`;
        await writeFile(tmp, snapshot, { mode: 0o600 });
        await rename(tmp, this.file);
      })
      .catch(() => undefined);
  }
}
