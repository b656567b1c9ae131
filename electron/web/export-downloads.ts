// History exports as real browser downloads: exportHistory hands the page a
// one-use link to /export/<ticket>, and the shell streams the export to it
// in constant memory (a million entries never become one string, in the
// shell or in the page). The ticket is the credential: 256 random bits, made
// only for a tab that passed the token check, good once and for a minute,
// bound to the filter and format it was made for.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryFilter } from '../../shared/host-api/contract';
import { exportFilename } from '../core/service/export-filename';
import type { HostService } from '../core/service/host-service';
import { sendText } from './static-files';

/** Where download links live. */
export const EXPORT_PATH = '/export/';
/** How long a link stays good. */
const TICKET_MS = 60_000;
/** Links that may be open at once (each is one click on Export). */
const MAX_TICKETS = 16;

interface Ticket {
  filter: HistoryFilter;
  format: 'jsonl' | 'csv';
  expires: number;
}

/** One-use export links for one shell. */
export class ExportDownloads {
  private readonly tickets = new Map<string, Ticket>();

  constructor(
    private readonly service: Pick<HostService, 'streamHistoryExport'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A link the page can download once, within a minute. */
  issue(filter: HistoryFilter, format: 'jsonl' | 'csv'): string {
    this.sweep();
    if (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, { filter: { ...filter }, format, expires: this.now() + TICKET_MS });
    return `${EXPORT_PATH}${ticket}`;
  }

  /** Serve GET /export/<ticket>: the export as an attachment, or 404 for an unknown, used or stale link. */
  async serve(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const ticket = (req.url ?? '').split('?')[0]!.slice(EXPORT_PATH.length);
    this.sweep();
    const found = this.tickets.get(ticket);
    if (!found) return sendText(res, 404, 'no such export (a link works once, for a minute)', headers);
    this.tickets.delete(ticket);
    res.writeHead(200, {
      ...headers,
      'Content-Type': found.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/jsonl; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFilename(found.format)}"`,
    });
    if (req.method === 'HEAD') return void res.end();
    try {
      await this.service.streamHistoryExport(found.filter, found.format, (chunk) =>
        res.write(chunk) || res.destroyed
          ? undefined
          : new Promise<void>((resolve) => {
              res.once('drain', resolve);
              res.once('close', resolve);
            }),
      );
      res.end();
    } catch {
      // Headers are gone: a cut-off download is the only honest signal left.
      res.destroy();
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [t, v] of this.tickets) if (v.expires <= now) this.tickets.delete(t);
  }
}
