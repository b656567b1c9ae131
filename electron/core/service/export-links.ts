// One-use history export links, as both front ends serve them: the desktop
// app under app://…/export/ and the web shell under /export/. Issuing a link,
// taking it once, the attachment headers and the journal stream behind it
// are the same rule on both sides, so they live here; each front end only
// turns the download into its own kind of response (a ReadableStream for
// Electron's protocol handler, a node:http response for the shell).
import type { HistoryFilter } from '../../../shared/host-api/contract';
import { exportFilename } from './export-filename';
import { exportContentType, ExportTickets } from './export-tickets';
import type { HostService } from './host-service';

/** What a stale, used or made-up link is answered with (404). */
export const NO_SUCH_EXPORT = 'no such export (a link works once, for a minute)';

/** The headers an export download is sent with: its type, and the file name it is saved under. */
export function exportAttachmentHeaders(format: 'jsonl' | 'csv'): Record<string, string> {
  return {
    'Content-Type': exportContentType(format),
    'Content-Disposition': `attachment; filename="${exportFilename(format)}"`,
  };
}

/** One download a link opened: its headers, and the export pushed chunk by chunk into a sink. */
export interface ExportDownload {
  headers: Record<string, string>;
  /** Streams the export; the sink's promise holds the journal back until the download takes more. */
  stream(sink: (chunk: string) => void | Promise<void>): Promise<unknown>;
}

/** One-use export links under one prefix (the part before the ticket); each front end extends it with its serve(). */
export class ExportLinks {
  private readonly tickets: ExportTickets;

  constructor(
    private readonly prefix: string,
    private readonly service: Pick<HostService, 'streamHistoryExport'>,
    now: () => number = Date.now,
  ) {
    this.tickets = new ExportTickets(now);
  }

  /** The one-use link for exportHistory's answer: good once, within a minute. */
  issue(filter: HistoryFilter, format: 'jsonl' | 'csv'): string {
    return `${this.prefix}${this.tickets.issue(filter, format)}`;
  }

  /** The headers the ticket's download would have, without spending it: undefined for an unknown or stale ticket. */
  headersOf(ticket: string): Record<string, string> | undefined {
    const found = this.tickets.peek(ticket);
    return found && exportAttachmentHeaders(found.format);
  }

  /** The download a ticket opens, once: undefined for an unknown, used or stale ticket. */
  open(ticket: string): ExportDownload | undefined {
    const found = this.tickets.take(ticket);
    if (!found) return undefined;
    return {
      headers: exportAttachmentHeaders(found.format),
      stream: (sink) => this.service.streamHistoryExport(found.filter, found.format, sink),
    };
  }
}
