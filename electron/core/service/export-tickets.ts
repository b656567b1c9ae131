// One-use links for streamed history exports, shared by the web shell (an
// HTTP download) and the desktop app (an app:// download): exportHistory hands
// the page a link, and the front end streams the export to it in constant
// memory, so a million entries never become one string. The ticket is the
// credential: 256 random bits, made only for a page that already holds the
// host API, good once and for a minute, bound to the filter and format it
// was made for.
import { randomBytes } from 'node:crypto';
import type { HistoryFilter } from '../../../shared/host-api/contract';

/** How long a link stays good. */
const TICKET_MS = 60_000;
/** Links that may be open at once (each is one click on Export). */
const MAX_TICKETS = 16;

export interface ExportTicket {
  filter: HistoryFilter;
  format: 'jsonl' | 'csv';
  expires: number;
}

export class ExportTickets {
  private readonly tickets = new Map<string, ExportTicket>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new ticket for one download of this export within a minute. */
  issue(filter: HistoryFilter, format: 'jsonl' | 'csv'): string {
    this.sweep();
    if (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, { filter: { ...filter }, format, expires: this.now() + TICKET_MS });
    return ticket;
  }

  /** The ticket's export, once: undefined for an unknown, used or stale ticket. */
  take(ticket: string): ExportTicket | undefined {
    this.sweep();
    const found = this.tickets.get(ticket);
    this.tickets.delete(ticket);
    return found;
  }

  /** The ticket's export without spending it (a HEAD request asks about a download, it is not one). */
  peek(ticket: string): ExportTicket | undefined {
    this.sweep();
    return this.tickets.get(ticket);
  }

  private sweep(): void {
    const now = this.now();
    for (const [t, v] of this.tickets) if (v.expires <= now) this.tickets.delete(t);
  }
}

/** The Content-Type of an export download. */
export function exportContentType(format: 'jsonl' | 'csv'): string {
  return format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8';
}
