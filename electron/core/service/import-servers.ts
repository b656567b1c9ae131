// Import servers from another host's config file (Claude Desktop, Cursor,
// VS Code). Entries are validated one by one: a bad entry is skipped with its
// reason instead of failing the whole import, and existing names are kept.
import { checkServerName, parseServerEntry, type ServerEntry } from '../config/server-config';
import { parseJsonText } from '../config/json-text';
import { HostError, messageOf } from '../host-error';

export interface ImportOutcome {
  entries: Record<string, ServerEntry>;
  skipped: Array<{ name: string; reason: string }>;
}

/** Parse a foreign config document; names in `existing` are skipped, never overwritten. */
export function importServers(json: string, existing: ReadonlySet<string>): ImportOutcome {
  const doc = parseJsonText(json, 'the imported file');
  const d = (doc ?? {}) as Record<string, unknown>;
  const nested = typeof d.mcp === 'object' && d.mcp !== null ? (d.mcp as Record<string, unknown>).servers : undefined;
  const servers = d.mcpServers ?? d.servers ?? nested;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new HostError(
      'config',
      'the imported file has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object',
    );
  }
  const out: ImportOutcome = { entries: {}, skipped: [] };
  for (const [name, raw] of Object.entries(servers)) {
    if (existing.has(name)) {
      out.skipped.push({ name, reason: 'a server with this name already exists' });
      continue;
    }
    try {
      checkServerName(name);
      out.entries[name] = parseServerEntry(name, raw);
    } catch (e) {
      out.skipped.push({ name, reason: messageOf(e) });
    }
  }
  return out;
}
