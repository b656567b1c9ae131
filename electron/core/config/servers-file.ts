// servers.json on disk, kept in step with the process's ServerList. A user may
// edit the file by hand while the app runs (any editor, including those that
// save by writing a temp file and renaming it over the original), so:
// - the data folder is watched and a changed file is loaded into the list; a
//   malformed one is reported with its file:line:col and the last good list
//   stays;
// - a write never replaces content this process has not read: the file is
//   re-read first, and when it differs from what was loaded last, that
//   content is loaded and the one change is applied on top of it (or refused
//   when it no longer fits, or when the file is malformed). Just before the
//   rename the file is compared once more, so an edit saved meanwhile is
//   merged too, not overwritten.
// Other servers' raw entries are written back as they were (keys this host
// ignores included): only the entry being changed is replaced.
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { JournalLockedError, withAppendLock } from '../history/lock';
import { HostError, messageOf } from '../host-error';
import { ensurePrivateDir, readCheckedFile, writePrivateFile } from '../storage/private-files';
import { parseJsonText } from './json-text';
import { parseServerConfig, type ServerEntry } from './server-config';
import { ServerList, type ServerListChange } from './server-list';

/** The raw `mcpServers` object of the document, and the parsed entries it holds now. */
export type ServersEdit = (raw: Record<string, unknown>, current: Readonly<Record<string, ServerEntry>>) => void;

export interface ServersFileOptions {
  /** The list to feed (default: a new one). */
  list?: ServerList;
  /** Written when the file is missing at open (the app's first start). Without it a missing file means no servers. */
  firstStart?: Record<string, ServerEntry>;
  /** Told when a change on disk could not be loaded (the list keeps its last good one), and with null once it is. */
  onProblem?: (problem: HostError | null) => void;
  /** Quiet time after the last change event before the file is read. Default 100 ms. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/** A snapshot of the file: its text and a hash to compare by (`null` text: no file). */
interface DiskState {
  text: string | null;
  hash: string;
}

const MISSING_HASH = 'missing';
/** Tries of read-edit-compare before giving up on a file that keeps changing under us. */
const WRITE_TRIES = 5;

async function readDisk(file: string): Promise<DiskState> {
  let text: string | undefined;
  try {
    // Its commands run as this user: a file someone else owns, or a symlink, is refused.
    text = await readCheckedFile(file);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError(
      'config',
      `cannot read config file ${file}: ${(e as NodeJS.ErrnoException).code ?? messageOf(e)}`,
    );
  }
  if (text === undefined) return { text: null, hash: MISSING_HASH };
  return { text, hash: createHash('sha256').update(text).digest('hex') };
}

function serversObject(doc: Record<string, unknown>): Record<string, unknown> {
  const nested = doc.mcp as Record<string, unknown> | undefined;
  const found = doc.mcpServers ?? doc.servers ?? (typeof nested === 'object' ? nested?.servers : undefined);
  if (found !== undefined) return found as Record<string, unknown>;
  const created: Record<string, unknown> = {};
  doc.mcpServers = created;
  return created;
}

/** servers.json, loaded into a ServerList, watched, and written without losing edits made meanwhile. */
export class ServersFile {
  readonly list: ServerList;
  /** The hash of the content the list was last loaded from (or written as). */
  private known: string;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Reloads and writes run one at a time: a reload that read the file before a write must not land after it. */
  private queue: Promise<unknown> = Promise.resolve();
  private current: HostError | null = null;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly options: ServersFileOptions,
    disk: DiskState,
    entries: Record<string, ServerEntry>,
  ) {
    this.known = disk.hash;
    this.list = options.list ?? new ServerList();
    this.list.replace(entries);
  }

  /** Load the file (creating it with `firstStart` when missing); a malformed file is an error naming file:line:col. */
  static async open(path: string, options: ServersFileOptions = {}): Promise<ServersFile> {
    let disk = await readDisk(path);
    if (disk.text === null && options.firstStart) {
      await ensurePrivateDir(dirname(path));
      const text = `${JSON.stringify({ mcpServers: options.firstStart }, null, 2)}\n`;
      await writePrivateFile(path, text);
      disk = await readDisk(path);
    }
    return new ServersFile(path, options, disk, parse(disk, path));
  }

  /** Why the last change on disk was not loaded (null: the list matches the file). */
  get problem(): HostError | null {
    return this.current;
  }

  /** Watch the folder (not the file: an editor's rename replaces the file's inode) and reload on change. */
  watch(): void {
    if (this.watcher || this.closed) return;
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), (_event, file) => {
        if (file !== null && file !== name) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.reload(), this.options.debounceMs ?? 100);
      });
      this.watcher.on('error', (e) => this.options.log?.(`stopped watching ${this.path}: ${messageOf(e)}`));
      this.watcher.unref();
    } catch (e) {
      this.options.log?.(`cannot watch ${dirname(this.path)} for changes to ${name}: ${messageOf(e)}`);
    }
  }

  /**
   * Load the file if it changed since it was last read. Returns what changed in
   * the list; a malformed file leaves the list as it was and sets `problem`.
   */
  reload(): Promise<ServerListChange | undefined> {
    return this.serial(() => this.reloadNow());
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadNow(): Promise<ServerListChange | undefined> {
    if (this.closed) return undefined;
    let disk: DiskState;
    let entries: Record<string, ServerEntry>;
    try {
      disk = await readDisk(this.path);
      if (disk.hash === this.known) {
        this.setProblem(null);
        return undefined;
      }
      entries = parse(disk, this.path);
    } catch (e) {
      const problem = e instanceof HostError ? e : new HostError('config', `${this.path}: ${messageOf(e)}`);
      this.options.log?.(`kept the previous servers: ${problem.message}`);
      this.setProblem(problem);
      return undefined;
    }
    this.known = disk.hash;
    this.setProblem(null);
    return this.list.replace(entries);
  }

  /**
   * Apply one change to the file and the list. The edit gets the raw servers
   * object of what is on disk now (and its parsed entries, to check against),
   * so a hand edit made since the last load is kept; it throws to refuse.
   */
  async update(edit: ServersEdit): Promise<ServerListChange> {
    const lockDir = join(dirname(this.path), '.servers-lock');
    await ensurePrivateDir(lockDir);
    return this.serial(() => withAppendLock(lockDir, () => this.writeChange(edit))).catch((e: unknown) => {
      // The history's lock is reused for its stale-lock handling; its timeout message speaks of the journal.
      if (!(e instanceof JournalLockedError)) throw e;
      throw new HostError(
        'config',
        `${this.path} is being saved by process ${e.holder.pid ?? '?'}, which has held its lock too long; ` +
          'nothing was written',
      );
    });
  }

  /** One read-edit-compare-write, under the lock. */
  private async writeChange(edit: ServersEdit): Promise<ServerListChange> {
    for (let attempt = 0; attempt < WRITE_TRIES; attempt++) {
      const disk = await readDisk(this.path);
      let base: Record<string, ServerEntry>;
      try {
        base = parse(disk, this.path);
      } catch (e) {
        throw new HostError(
          'config',
          `${this.path} was changed on disk and is not valid now, so nothing was written (fix it, then try again): ` +
            `${messageOf(e)}`,
        );
      }
      // Load what someone else wrote first: the list must show it, and the edit is checked against it.
      if (disk.hash !== this.known) {
        this.known = disk.hash;
        this.setProblem(null);
        this.list.replace(base);
      }
      const doc = (disk.text === null ? { mcpServers: {} } : JSON.parse(disk.text)) as Record<string, unknown>;
      edit(serversObject(doc), base);
      const next = parseServerConfig(doc, this.path);
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      // Compare before write: an edit saved while we were working is read and merged on the next try.
      if ((await readDisk(this.path)).hash !== disk.hash) continue;
      await writePrivateFile(this.path, text);
      this.known = createHash('sha256').update(text).digest('hex');
      return this.list.replace(next);
    }
    throw new HostError(
      'config',
      `${this.path} kept changing while the change was being saved (${WRITE_TRIES} tries), so nothing was written; ` +
        'try again',
    );
  }

  private setProblem(problem: HostError | null): void {
    if (problem?.message === this.current?.message) return;
    this.current = problem;
    this.options.onProblem?.(problem);
  }

  /** Stop watching. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }
}

function parse(disk: DiskState, path: string): Record<string, ServerEntry> {
  if (disk.text === null) return {};
  return parseServerConfig(parseJsonText(disk.text, path), path);
}
