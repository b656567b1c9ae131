// History exports in the desktop app, streamed like the web shell's: the
// renderer gets a one-use app://…/export/<ticket> link and starts a download
// of it; the app:// handler answers with a Response whose body is pulled
// chunk by chunk from the journal, so a million entries never become one
// string in main or in the renderer (issue 9 item 11). Electron asks where to
// save it (hardening.ts allows exactly these downloads). Electron-free: main.ts
// routes the app:// requests under EXPORT_PATH here.
import { ExportLinks, NO_SUCH_EXPORT, type ExportDownload } from '../core/service/export-links';
import type { HostService } from '../core/service/host-service';
import { APP_ORIGIN } from './app-protocol';

/** Where export links live on the app origin. */
export const APP_EXPORT_PATH = '/export/';

export class AppExports extends ExportLinks {
  constructor(service: Pick<HostService, 'streamHistoryExport'>, now: () => number = Date.now) {
    super(`${APP_ORIGIN}${APP_EXPORT_PATH}`, service, now);
  }

  /** True for an app:// request this serves. */
  handles(url: string): boolean {
    return url.startsWith(`${APP_ORIGIN}${APP_EXPORT_PATH}`);
  }

  /** The export as a streamed attachment, or 404 for an unknown, used or stale link. */
  serve(request: { url: string; method: string }): Response {
    if (request.method !== 'GET') return new Response(null, { status: 405, headers: { Allow: 'GET' } });
    const download = this.open(new URL(request.url).pathname.slice(APP_EXPORT_PATH.length));
    if (!download) return new Response(NO_SUCH_EXPORT, { status: 404 });
    return new Response(this.stream(download), {
      status: 200,
      headers: { ...download.headers, 'Cache-Control': 'no-store' },
    });
  }

  /**
   * The journal's push (exportTo awaits each chunk's sink) meets the
   * download's pull: a chunk waits while the stream's queue is full, so
   * memory stays at about one queue of chunks however long the history is.
   */
  private stream(download: ExportDownload): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let wake: (() => void) | undefined;
    let cancelled = false;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          void download
            .stream(async (chunk) => {
              if (cancelled) throw new Error('the download was cancelled');
              controller.enqueue(encoder.encode(chunk));
              while (!cancelled && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((r) => (wake = r));
            })
            .then(
              () => {
                if (!cancelled) controller.close();
              },
              // Headers are gone: a cut-off download is the only honest signal left.
              (e: unknown) => {
                if (!cancelled) controller.error(e);
              },
            );
        },
        pull: () => {
          wake?.();
          wake = undefined;
        },
        cancel: () => {
          cancelled = true;
          wake?.();
        },
      },
      { highWaterMark: 8 },
    );
  }
}
