// History exports through the web shell as streamed downloads: exportHistory
// answers with a one-use link, the shell streams the export to it (newest
// first, the same bytes as the whole-list export), and the link works once,
// only with the shell's Host header, and not for a made-up ticket.

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBulkJournal } from '../../electron/core/history/fixtures/bulk-journal';
import { mixedEntries } from '../../electron/core/history/fixtures/mixed-history';
import { buildItems, filterItems, readJournal } from '../../electron/core/history';
import { toCsv, toJsonLines } from '../../electron/core/service/history-export';
import { HostService } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';
import { startWebShell, type WebShell } from '../../electron/web/web-shell';
import { makeRendererDir } from './helpers';

let dataDir: string;
let renderer: ReturnType<typeof makeRendererDir>;
let service: HostService;
let shell: WebShell;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'countersign-export-'));
  const entries = mixedEntries(4000, 41);
  const historyDir = join(dataDir, 'history');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(historyDir, { mode: 0o700 });
  await writeBulkJournal(historyDir, entries.length, (i) => entries[i]!, { rotateBytes: 64 * 1024 });
  const history = await JournalHistory.open(historyDir, { watch: false });
  service = await HostService.create({ dataDir, history, openExternal: async () => undefined, connectOnStart: false });
  service.log = () => undefined;
  renderer = makeRendererDir();
  shell = await startWebShell({ service, port: 0, rendererDir: renderer.rendererDir, log: () => undefined });
});
afterAll(async () => {
  await shell.close();
  await service.close();
  renderer.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

function get(
  path: string,
  host = `127.0.0.1:${shell.port}`,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: shell.port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const newestFirst = async (filter = {}) =>
  filterItems(buildItems((await readJournal(join(dataDir, 'history'))).entries), filter).reverse();

describe('web shell: history export as a streamed download', () => {
  it('answers exportHistory with a one-use link that streams the export as an attachment', async () => {
    const result = await service.invoke('exportHistory', { filter: { server: 'github' }, format: 'jsonl' });
    expect(result).not.toHaveProperty('data');
    const url = (result as { url: string }).url;
    expect(url).toMatch(/^\/export\/[A-Za-z0-9_-]{43}$/);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="countersign-history-.*\.jsonl"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toBe(toJsonLines(await newestFirst({ server: 'github' })));
    // Once only.
    expect((await get(url)).status).toBe(404);
  });

  it('streams CSV too, and refuses a made-up ticket or a foreign Host', async () => {
    const { url } = (await service.invoke('exportHistory', { filter: {}, format: 'csv' })) as { url: string };
    expect((await get(url, 'evil.example:80')).status).toBe(403);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.body).toBe(toCsv(await newestFirst()));
    expect((await get(`/export/${'A'.repeat(43)}`)).status).toBe(404);
  });

  it('a HEAD request answers with the headers and leaves the one-use link unspent', async () => {
    const { url } = (await service.invoke('exportHistory', { filter: {}, format: 'csv' })) as { url: string };
    const head = await get(url, undefined, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-disposition']).toMatch(/^attachment; filename="countersign-history-.*\.csv"$/);
    expect(head.body).toBe('');
    expect((await get(url, undefined, 'HEAD')).status).toBe(200);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.body).toBe(toCsv(await newestFirst()));
    // Spent by the download: HEAD and GET alike now find nothing.
    expect((await get(url, undefined, 'HEAD')).status).toBe(404);
    expect((await get(url)).status).toBe(404);
  });
});
