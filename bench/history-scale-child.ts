// One measurement of bench/history-scale.bench.ts in a fresh process, so its
// time and peak RSS are its own: prints one JSON line.
//   limit  DIR   `countersign history --limit 10` in-process (the command's own time)
//   app    DIR   what the app does at start: HostService + JournalHistory open, first page of the History view
//   export DIR   the whole history streamed as JSON Lines to /dev/null

import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runHistoryCommand } from '../electron/cli/history-command';
import { HostService } from '../electron/core/service/host-service';
import { JournalHistory } from '../electron/core/service/journal-history';

const [mode, dir] = process.argv.slice(2);
if (!mode || !dir) throw new Error('usage: history-scale-child limit|app|export DIR');
const peakMiB = () => Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;

async function main(): Promise<Record<string, number>> {
  const t = performance.now();
  if (mode === 'limit') {
    let lines = 0;
    const code = await runHistoryCommand(['--dir', dir!, '--limit', '10'], {
      stdout: (s) => void (lines += s.split('\n').length - 1),
      stderr: (s) => process.stderr.write(s),
      env: {},
    });
    if (code !== 0 || lines !== 10) throw new Error(`history --limit 10 gave exit ${code}, ${lines} lines`);
    return { ms: performance.now() - t, peakMiB: peakMiB() };
  }
  if (mode === 'app') {
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-bench-app-'));
    try {
      const history = await JournalHistory.open(dir!);
      const service = await HostService.create({
        dataDir,
        history,
        openExternal: async () => undefined,
        connectOnStart: false,
      });
      const page = await service.invoke('queryHistory', { offset: 0, limit: 100 });
      const ms = performance.now() - t;
      if (page.entries.length !== 100) throw new Error(`first page has ${page.entries.length} items`);
      const rssMiB = Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10;
      await service.close();
      return { ms, rssMiB, peakMiB: peakMiB() };
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const history = await JournalHistory.open(dir!, { watch: false });
  const out = createWriteStream('/dev/null');
  let bytes = 0;
  const items = await history.exportTo({}, 'jsonl', (chunk) => {
    bytes += chunk.length;
    if (out.write(chunk)) return;
    return new Promise<void>((resolve) => out.once('drain', resolve));
  });
  await new Promise<void>((resolve) => out.end(resolve));
  await history.close();
  return { ms: performance.now() - t, items, mib: Math.round(bytes / 1024 / 1024), peakMiB: peakMiB() };
}

main().then(
  (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
  (err: Error) => {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
