// The desktop app's history export as a streamed app:// download: the link
// works once, the body is the same bytes as the whole-list export, and the
// journal is read only as fast as the download takes it (the stream's queue
// bounds what is held), so a long history never becomes one string.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBulkJournal } from '../core/history/fixtures/bulk-journal';
import { mixedEntries } from '../core/history/fixtures/mixed-history';
import { buildItems, filterItems, readJournal } from '../core/history';
import { toCsv, toJsonLines } from '../core/service/history-export';
import { HostService } from '../core/service/host-service';
import { JournalHistory } from '../core/service/journal-history';
import { AppExports } from './app-export';
import { APP_ORIGIN } from './app-protocol';
import { isAllowedDownload } from './hardening';

let dataDir: string;
let service: HostService;
let exports: AppExports;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'countersign-app-export-'));
  const entries = mixedEntries(3000, 7);
  await mkdir(join(dataDir, 'history'), { mode: 0o700 });
  await writeBulkJournal(join(dataDir, 'history'), entries.length, (i) => entries[i]!, { rotateBytes: 64 * 1024 });
  const history = await JournalHistory.open(join(dataDir, 'history'), { watch: false });
  service = await HostService.create({ dataDir, history, openExternal: async () => undefined, connectOnStart: false });
  service.log = () => undefined;
  exports = new AppExports(service);
  service.exportLinks = (filter, format) => exports.issue(filter, format);
});
afterAll(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});

const newestFirst = async (filter = {}) =>
  filterItems(buildItems((await readJournal(join(dataDir, 'history'))).entries), filter).reverse();

describe('desktop app: history export as a streamed app:// download', () => {
  it('answers exportHistory with a one-use app:// link whose body is the whole export', async () => {
    const result = await service.invoke('exportHistory', { filter: { server: 'github' }, format: 'jsonl' });
    expect(result).not.toHaveProperty('data');
    const { url } = result as { url: string };
    expect(url).toMatch(new RegExp(`^${APP_ORIGIN}/export/[A-Za-z0-9_-]{43}$`));
    expect(exports.handles(url)).toBe(true);
    expect(isAllowedDownload(url)).toBe(true);
    const res = exports.serve({ url, method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="countersign-history-.*\.jsonl"$/);
    expect(await res.text()).toBe(toJsonLines(await newestFirst({ server: 'github' })));
    expect(exports.serve({ url, method: 'GET' }).status).toBe(404);
  });

  it('streams CSV, refuses a made-up ticket, and allows no other app:// download', async () => {
    const { url } = (await service.invoke('exportHistory', { filter: {}, format: 'csv' })) as { url: string };
    expect(exports.serve({ url: `${APP_ORIGIN}/export/made-up`, method: 'GET' }).status).toBe(404);
    const res = exports.serve({ url, method: 'GET' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe(toCsv(await newestFirst()));
    expect(exports.handles(`${APP_ORIGIN}/index.html`)).toBe(false);
    expect(isAllowedDownload(`${APP_ORIGIN}/index.html`)).toBe(false);
  });

  it('reads the journal only as fast as the download takes it', async () => {
    let produced = 0;
    const slow = new AppExports({
      streamHistoryExport: (filter, format, sink) =>
        service.streamHistoryExport(filter, format, (chunk) => {
          produced += 1;
          return sink(chunk);
        }),
    });
    const res = slow.serve({ url: slow.issue({}, 'jsonl'), method: 'GET' });
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 200));
    // Nothing more is read than the queue holds while nobody takes it.
    const whileIdle = produced;
    expect(whileIdle).toBeLessThanOrEqual(12);
    let chunks = 1;
    while (!(await reader.read()).done) chunks += 1;
    expect(produced).toBe(chunks);
    expect(chunks).toBeGreaterThan(whileIdle);
  });
});
