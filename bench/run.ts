// `npm run bench`: runs every benchmark, prints a table, and writes
// docs/benchmarks.md and bench/results/latest.json. Figures are ratios
// measured side by side in one run where a goal is a ratio: these machines
// are noisy, absolute times are for orientation only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMarkdown } from '../scripts/format-markdown.mjs';
import { benchCliStart } from './cli-start.bench';
import { benchConnect, benchRetryOverhead } from './core.bench';
import { benchHistory } from './history.bench';
import { benchHistoryScale } from './history-scale.bench';
import { benchGateway } from './gateway.bench';
import { benchRenderer } from './renderer.bench';
import { benchApps } from './apps.bench';
import { benchPasskeys } from './passkeys.bench';
import { inOwnProcess, runOneSection, runSections, type Section } from './sections';
import { benchTaskPolling } from './tasks.bench';

const script = fileURLToPath(import.meta.url);
const root = join(dirname(script), '..');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sections: Section[] = [
    { title: 'Host core: retry loop', run: () => benchRetryOverhead() },
    { title: 'Host core: connect and era detection', run: () => benchConnect() },
    { title: 'History journal (100k entries)', run: () => benchHistory() },
    { title: 'History at a million entries', run: () => benchHistoryScale() },
    { title: 'Tasks: what polling costs', run: () => benchTaskPolling() },
    { title: 'Agent gateway', run: () => benchGateway() },
    { title: 'CLI start', run: () => benchCliStart() },
    { title: 'Renderer (Chromium)', run: () => benchRenderer() },
    { title: 'MCP Apps (Chromium)', run: () => benchApps() },
    { title: 'Passkeys (Chromium)', run: () => benchPasskeys() },
  ];

  // `--section <title> --out <file>`: this is one section's own process (see inOwnProcess).
  const sectionAt = args.indexOf('--section');
  if (sectionAt >= 0) {
    const section = sections.find((s) => s.title === args[sectionAt + 1]);
    const out = args[args.indexOf('--out') + 1];
    if (!section || !out) throw new Error(`bench: no section ${JSON.stringify(args[sectionAt + 1])} (or no --out)`);
    await runOneSection(section, out);
    // Some sections leave handles (a server's socket in TIME_WAIT, a browser's pipe) to the exit.
    process.exit(process.exitCode ?? 0);
  }
  const only = args;

  const { results, failed } = await runSections(
    sections.map((s) => inOwnProcess(script, s.title)),
    only,
  );

  const verdict = (r: { value: number; goal: number | string | null }) => {
    if (r.goal === null) return '';
    if (typeof r.goal === 'number') return r.value <= r.goal ? 'met' : 'MISSED';
    // String goals read "≤ 1.2×" or "≥ 1000 calls/s".
    const m = /^([≤≥])\s*([\d.]+)/.exec(r.goal);
    if (!m) return '';
    const bound = Number(m[2]);
    return (m[1] === '≤' ? r.value <= bound : r.value >= bound) ? 'met' : 'MISSED';
  };
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts). Ratios compare two sides measured',
    'interleaved in the same run; absolute times depend on the machine and its load.',
    "Where the gateway's time goes (profile, three-sided latency): docs/gateway-profile.md.",
    '',
    'Each section runs in a process of its own, after `sync` (bench/sections.ts).',
    '',
    "**The gateway's profile, in short** (the rounds, the method and the figures before and",
    'after are in docs/gateway-profile.md). Per pass-through call the gateway and the bare',
    'relay make the same system calls (one `read` and one `write` per leg, one `epoll_pwait`).',
    "What the gateway adds is user time: it reads the agent's line itself (no SDK server on",
    "the plain path), checks and routes the request, runs it on the Host's ordinary call path",
    "(the SDK client's public request: its envelope, timeout, per-message and result schemas;",
    "the Host's AbortController, events and wire checks), and cleans the result before the",
    'agent sees it. Since issue 25 no code reaches into the SDK\'s internals; "On the public',
    'API" in docs/gateway-profile.md says what that costs. No check that guards the human was',
    'dropped.',
    '',
    `Run: ${new Date().toISOString()} · Node ${process.versions.node} · ${cpus().length} cores · load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
    '',
  ];
  for (const s of [...new Set(results.map((r) => r.section))]) {
    lines.push(`## ${s}`, '', '| measure | value | goal | |', '| --- | ---: | ---: | --- |');
    for (const r of results.filter((x) => x.section === s)) {
      const goal = r.goal === null ? '' : typeof r.goal === 'number' ? `≤ ${r.goal} ${r.unit}` : r.goal;
      lines.push(`| ${r.name} | ${r.value} ${r.unit} | ${goal} | ${verdict(r)} |`);
    }
    lines.push('');
  }
  for (const f of failed) lines.push(`**${f.section}: FAILED**: ${f.error}`, '');
  const md = `${lines.join('\n')}\n`;
  // The committed figures are replaced only by a complete run of every section.
  if (only.length === 0 && failed.length === 0) {
    const doc = join(root, 'docs', 'benchmarks.md');
    writeFileSync(doc, await formatMarkdown(doc, md));
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    writeFileSync(join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  }
  process.stdout.write(md);
  if (failed.length > 0) {
    process.stderr.write(
      `bench: ${failed.length} section(s) failed (${failed.map((f) => f.section).join(', ')}); docs/benchmarks.md left as it was\n`,
    );
  }
  process.exit(failed.length > 0 ? 1 : 0);
}

void main();
