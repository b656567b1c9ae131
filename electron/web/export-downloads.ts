// History exports as real browser downloads: exportHistory hands the page a
// one-use link to /export/<ticket>, and the shell streams the export to it
// in constant memory (a million entries never become one string, in the
// shell or in the page). The ticket is the credential: 256 random bits, made
// only for a tab that passed the token check, good once and for a minute,
// bound to the filter and format it was made for.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryFilter } from '../../shared/host-api/contract';
import { exportFilename } from '../core/service/export-filename';
import { exportContentType, ExportTickets } from '../core/service/export-tickets';
import type { HostService } from '../core/service/host-service';
import { sendText } from './static-files';

/** Where download links live. */
export const EXPORT_PATH = '/export/';

/** One-use export links for one shell. */
export class ExportDownloads {
  private readonly tickets: ExportTickets;

  constructor(
    private readonly service: Pick<HostService, 'streamHistoryExport'>,
    now: () => number = Date.now,
  ) {
    this.tickets = new ExportTickets(now);
  }

  /** A link the page can download once, within a minute. */
  issue(filter: HistoryFilter, format: 'jsonl' | 'csv'): string {
    return `${EXPORT_PATH}${this.tickets.issue(filter, format)}`;
  }

  /** Serve GET /export/<ticket>: the export as an attachment, or 404 for an unknown, used or stale link. */
  async serve(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const found = this.tickets.take((req.url ?? '').split('?')[0]!.slice(EXPORT_PATH.length));
    if (!found) return sendText(res, 404, 'no such export (a link works once, for a minute)', headers);
    res.writeHead(200, {
      ...headers,
      'Content-Type': exportContentType(found.format),
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
}
