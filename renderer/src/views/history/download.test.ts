// The two ways the History view saves an export: a streamed link of the
// host's origin, and text behind a blob: URL. Both click one hidden
// <a download> (the same code) and leave nothing behind in the page.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadLink, downloadText } from './download';

function watchClicks(): { clicks: Array<{ href: string; download: string; hidden: boolean; inPage: boolean }> } {
  const clicks: Array<{ href: string; download: string; hidden: boolean; inPage: boolean }> = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push({ href: this.href, download: this.download, hidden: this.hidden, inPage: this.isConnected });
  });
  return { clicks };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('downloadLink', () => {
  it('clicks a hidden link to the URL with the file name, then takes it out of the page', () => {
    const { clicks } = watchClicks();
    downloadLink('http://127.0.0.1:4000/export/abc', 'countersign-history.csv');
    expect(clicks).toEqual([
      { href: 'http://127.0.0.1:4000/export/abc', download: 'countersign-history.csv', hidden: true, inPage: true },
    ]);
    expect(document.querySelector('a')).toBeNull();
  });

  it('takes the link out even when the click throws', () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {
      throw new Error('blocked');
    });
    expect(() => downloadLink('http://127.0.0.1:4000/x', 'f.jsonl')).toThrow('blocked');
    expect(document.querySelector('a')).toBeNull();
  });
});

describe('downloadText', () => {
  it('puts the text behind a blob: URL, clicks it as the named file, and revokes the URL only later', async () => {
    vi.useFakeTimers();
    const { clicks } = watchClicks();
    const blobs: Blob[] = [];
    const revoke = vi.fn();
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:test-1';
      },
      revokeObjectURL: revoke,
    });
    downloadText('{"a":1}\n', 'countersign-history.jsonl', 'application/jsonl;charset=utf-8');
    expect(clicks).toEqual([
      { href: 'blob:test-1', download: 'countersign-history.jsonl', hidden: true, inPage: true },
    ]);
    expect(document.querySelector('a')).toBeNull();
    expect(blobs[0]?.type).toBe('application/jsonl;charset=utf-8');
    await expect(blobs[0]!.text()).resolves.toBe('{"a":1}\n');
    // The download may still be reading the blob right after the click.
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(revoke).toHaveBeenCalledWith('blob:test-1');
  });

  it('still revokes the URL when the click throws', () => {
    vi.useFakeTimers();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {
      throw new Error('blocked');
    });
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: () => 'blob:test-2', revokeObjectURL: revoke });
    expect(() => downloadText('x', 'f.csv', 'text/csv')).toThrow('blocked');
    vi.advanceTimersByTime(10_000);
    expect(revoke).toHaveBeenCalledWith('blob:test-2');
  });
});
