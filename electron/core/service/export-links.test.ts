// The export link rules both front ends use: a link is the prefix plus a
// fresh ticket, opens once within a minute, carries the filter and format it
// was made for, and is sent as an attachment named for its format.
import { describe, expect, it } from 'vitest';
import type { HistoryFilter } from '../../../shared/host-api/contract';
import { exportAttachmentHeaders, ExportLinks } from './export-links';

type Streamed = { filter: HistoryFilter; format: 'jsonl' | 'csv' };

function links(now = () => 1_000) {
  const streamed: Streamed[] = [];
  const service = {
    streamHistoryExport: async (
      filter: HistoryFilter,
      format: 'jsonl' | 'csv',
      sink: (chunk: string) => void | Promise<void>,
    ) => {
      streamed.push({ filter, format });
      await sink('one\n');
      await sink('two\n');
      return 2;
    },
  };
  return { links: new ExportLinks('/export/', service, now), streamed };
}

const ticketOf = (link: string) => link.slice('/export/'.length);

describe('ExportLinks', () => {
  it('issues the prefix plus a 256-bit ticket, a new one each time', () => {
    const { links: l } = links();
    const a = l.issue({}, 'jsonl');
    expect(a).toMatch(/^\/export\/[A-Za-z0-9_-]{43}$/);
    expect(l.issue({}, 'jsonl')).not.toBe(a);
  });

  it('opens a link once, streaming the filter and format it was issued for', async () => {
    const { links: l, streamed } = links();
    const ticket = ticketOf(l.issue({ server: 'github' }, 'csv'));
    const download = l.open(ticket)!;
    expect(download.headers).toEqual(exportAttachmentHeaders('csv'));
    const chunks: string[] = [];
    await download.stream((c) => void chunks.push(c));
    expect(chunks).toEqual(['one\n', 'two\n']);
    expect(streamed).toEqual([{ filter: { server: 'github' }, format: 'csv' }]);
    expect(l.open(ticket)).toBeUndefined();
  });

  it('refuses a made-up ticket and one older than a minute', () => {
    let t = 0;
    const { links: l } = links(() => t);
    expect(l.open('made-up')).toBeUndefined();
    const ticket = ticketOf(l.issue({}, 'jsonl'));
    t = 60_000;
    expect(l.open(ticket)).toBeUndefined();
  });
});

describe('exportAttachmentHeaders', () => {
  it('names the type and a dated file for each format', () => {
    expect(exportAttachmentHeaders('jsonl')).toEqual({
      'Content-Type': 'application/jsonl; charset=utf-8',
      'Content-Disposition': expect.stringMatching(
        /^attachment; filename="countersign-history-\d{4}-\d\d-\d\d\.jsonl"$/,
      ),
    });
    expect(exportAttachmentHeaders('csv')).toEqual({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': expect.stringMatching(/^attachment; filename="countersign-history-\d{4}-\d\d-\d\d\.csv"$/),
    });
  });
});
