// Import servers from another agent's config file (Claude Desktop, Cursor,
// Claude Code, VS Code, Codex, Goose). Entries are validated one by one: a bad
// entry is skipped with its reason instead of failing the whole import, and
// existing names are kept. Nothing here starts a server: the front end shows
// the plan (what each server will run) and writes it only after the person
// agreed.
import { readForeignConfig, type ConfigInput, type ForeignFormat } from '../config/foreign-config';
import { checkServerName, parseServerEntry, type ServerEntry } from '../config/server-config';
import { hideSecrets } from '../config/hidden-values';
import { missingText, missingValues } from '../config/variables';
import type { ImportPlanItem } from '../../../shared/config/server-entry';
import { messageOf } from '../host-error';

export interface ImportOutcome {
  format: ForeignFormat;
  entries: Record<string, ServerEntry>;
  skipped: Array<{ name: string; reason: string }>;
  /** The `${input:…}` values the entries use (VS Code), to be asked of the person. */
  inputs: ConfigInput[];
}

const INPUT = /\$\{input:([^{}]+)\}/g;

/** Read a foreign config into entries; names in `existing` are skipped, never overwritten. */
export function importServers(text: string, existing: ReadonlySet<string>, fileName?: string): ImportOutcome {
  const foreign = readForeignConfig(text, fileName);
  const out: ImportOutcome = { format: foreign.format, entries: {}, skipped: [...foreign.skipped], inputs: [] };
  const used = new Set<string>();
  for (const [name, raw] of Object.entries(foreign.servers)) {
    if (existing.has(name)) {
      out.skipped.push({ name, reason: 'a server with this name already exists' });
      continue;
    }
    try {
      checkServerName(name);
      const entry = parseServerEntry(name, raw);
      out.entries[name] = entry;
      for (const m of missingValues(entry, { env: {} }))
        for (const [, id] of m.placeholder.matchAll(INPUT)) used.add(id!);
    } catch (e) {
      out.skipped.push({ name, reason: messageOf(e) });
    }
  }
  const declared = new Map(foreign.inputs.map((i) => [i.id, i]));
  // An input used but not declared is still asked for; VS Code would ask too.
  out.inputs = [...used].map((id) => declared.get(id) ?? { id, description: id, password: false });
  return out;
}

/**
 * The entries with each given `${input:ID}` value filled in; inputs without a value stay as placeholders. A
 * password input is filled only into `env` and header values, which are kept hidden like other secrets; in a
 * command, an argument or a URL (shown in the server list, and in the process's command line for every user to
 * read) it stays a placeholder, and the server says it needs a value there.
 */
export function fillInputs(
  entries: Record<string, ServerEntry>,
  values: Readonly<Record<string, string>>,
  inputs: readonly ConfigInput[] = [],
): Record<string, ServerEntry> {
  const secret = new Set(inputs.filter((i) => i.password).map((i) => i.id));
  const fill = (text: string, hidden: boolean) =>
    text.replace(INPUT, (whole: string, id: string) =>
      Object.hasOwn(values, id) && (hidden || !secret.has(id)) ? values[id]! : whole,
    );
  const shown = (text: string) => fill(text, false);
  const fillHidden = (record: Record<string, string> | undefined) =>
    record && Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fill(v, true)]));
  return Object.fromEntries(
    Object.entries(entries).map(([name, entry]) => {
      if ('command' in entry) {
        const env = fillHidden(entry.env);
        return [
          name,
          {
            ...entry,
            command: shown(entry.command),
            ...(entry.args ? { args: entry.args.map(shown) } : {}),
            ...(env ? { env } : {}),
          },
        ];
      }
      const headers = fillHidden(entry.headers);
      return [name, { ...entry, url: shown(entry.url), ...(headers ? { headers } : {}) }];
    }),
  );
}

/** One line saying what an entry will run: its command line or its URL. */
export function whatRuns(entry: ServerEntry): string {
  if (!('command' in entry)) return entry.url;
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return [entry.command, ...(entry.args ?? [])].map(quote).join(' ');
}

/** What each entry would run and still needs, as a front end may see it (secrets hidden). */
export function importPlan(entries: Record<string, ServerEntry>): ImportPlanItem[] {
  return Object.entries(entries).map(([name, entry]) => {
    const shown = hideSecrets(entry);
    return {
      name,
      runs: whatRuns(shown),
      entry: shown,
      // Inputs left unanswered, and environment variables not set in this process.
      needs: missingValues(entry, { env: process.env }).map(missingText),
    };
  });
}
