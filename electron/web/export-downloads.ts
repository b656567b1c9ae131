// History exports as real browser downloads: exportHistory hands the page a
// one-use link to /export/<ticket>, and the shell streams the export to it
// in constant memory (a million entries never become one string, in the
// shell or in the page). The ticket is the credential: 256 random bits, made
// only for a tab that passed the token check, good once and for a minute,
// bound to the filter and format it was made for.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExportLinks, NO_SUCH_EXPORT } from '../core/service/export-links';
import type { HostService } from '../core/service/host-service';
import { sendText } from './static-files';

/** Where download links live. */
export const EXPORT_PATH = '/export/';

/** One-use export links for one shell. */
export class ExportDownloads extends ExportLinks {
  constructor(service: Pick<HostService, 'streamHistoryExport'>, now: () => number = Date.now) {
    super(EXPORT_PATH, service, now);
  }

  /**
   * Serve GET /export/<ticket>: the export as an attachment, or 404 for an
   * unknown, used or stale link. A HEAD gets the same headers and leaves the
   * link unspent: only the download itself uses it up.
   */
  async serve(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const ticket = (req.url ?? '').split('?')[0]!.slice(EXPORT_PATH.length);
    if (req.method === 'HEAD') {
      const found = this.headersOf(ticket);
      if (!found) return sendText(res, 404, NO_SUCH_EXPORT, headers);
      res.writeHead(200, { ...headers, ...found });
      return void res.end();
    }
    const download = this.open(ticket);
    if (!download) return sendText(res, 404, NO_SUCH_EXPORT, headers);
    res.writeHead(200, { ...headers, ...download.headers });
    try {
      await download.stream((chunk) =>
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
