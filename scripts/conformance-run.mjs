#!/usr/bin/env node
// @ts-check
// Runs the official MCP conformance suite's CLIENT scenarios against the
// `countersign` CLI and records the outcome. Plain ESM JavaScript so it runs
// under the Node 22 that scripts/conformance.sh installs (no build step).
//
// Normally started by scripts/conformance.sh (`npm run conformance`), which
// installs Node 22 and the pinned suite into .cache/conformance/ first.
//
// What it does:
//   1. asks the suite which client scenarios exist (`conformance list --client`),
//   2. runs every required scenario (initialize, tools_call,
//      elicitation-sep1034-client-defaults, sep-2322-client-request-state,
//      request-metadata, json-schema-*, http-*) once per protocol era it
//      applies to (2025-11-25 legacy / 2026-07-28 modern), and the auth/*
//      family once each as EXPECTED failures,
//   3. reads each run's machine-readable checks.json (written by the suite
//      with -o), plus the suite's exit code (which also covers a client that
//      timed out or exited non-zero),
//   4. writes <results>/summary.json and <results>/conformance.md (the results
//      section, in the git-ignored .cache/), prints a table, and exits 1 if any
//      required scenario failed or produced a WARNING (auth/* never fails the run).
//      Only with --doc (`npm run docs`) does it rewrite the committed results
//      section of docs/conformance.md: `npm test` leaves the tree clean.
//
// Run with --help for options.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMarkdown } from './format-markdown.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(REPO, '.cache', 'conformance');
const SUITE_DIR = path.join(CACHE, 'node_modules', '@modelcontextprotocol', 'conformance');
const SUITE_BIN = path.join(SUITE_DIR, 'dist', 'index.js');
const DOC = path.join(REPO, 'docs', 'conformance.md');
const CLIENT_BIN = path.join(REPO, 'bin', 'countersign.mjs');
// The client the suite runs: the conformance adapter (scripts/conformance-client.mjs),
// which drives `countersign exercise` and the core; bundled once per run.
const ADAPTER = path.join(REPO, 'scripts', 'conformance-client.mjs');
const ADAPTER_SOURCE = path.join(REPO, 'scripts', 'conformance', 'adapter.ts');
const ADAPTER_BUNDLE = path.join(REPO, '.cache', 'adapter', 'adapter.bundle.mjs');
// The requirement sets run the way the suite runs itself (`--requirements`, all scenarios in parallel).
const REQUIREMENT_SETS = ['2026-07-28', '2025-11-25'];
// Scenarios (never a scored one) that may fail, each with the reason something
// outside this machine is needed. A scored scenario failing, or any scenario
// not listed here failing, is a regression.
const NOT_SCORED_EXPECTED_FAIL = {
  'auth/enterprise-managed-authorization':
    'needs an enterprise identity provider session (ID-JAG token exchange); Countersign has no enterprise IdP sign-in',
  'auth/wif-jwt-bearer': 'needs a workload identity (a platform-issued JWT); a desktop host has none',
};

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const REQUIRED_NAMES = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sep-2322-client-request-state',
  'request-metadata',
];
const REQUIRED_PATTERNS = [/^json-schema-/, /^http-/];
// Every auth/* scenario is required now (the adapter signs in through the core);
// the extensions that need something outside this machine stay expected failures.
const REQUIRED_AUTH = /^auth\//;
const EXPECTED_FAIL_PATTERNS = Object.keys(NOT_SCORED_EXPECTED_FAIL).map((n) => new RegExp(`^${n}$`));
const KNOWN_GAPS = [];
const MARK_BEGIN = '<!-- conformance-results:begin -->';
const MARK_END = '<!-- conformance-results:end -->';

const HELP = `Usage: scripts/conformance.sh [options]   (or: npm run conformance -- [options])

Options:
  --client <cmd>     client command; the suite appends the server URL as the last
                     argument and sets MCP_CONFORMANCE_SCENARIO (env: CONFORMANCE_CLIENT_CMD;
                     default: the adapter, node <repo>/scripts/conformance-client.mjs). "exec " is
                     prefixed so the suite's timeout kills the client itself, not just /bin/sh.
  --per-scenario     run scenario by scenario (the plan below) instead of the two requirement sets
  --only <regex>     (implies --per-scenario) run only plan entries whose "scenario@version" matches
  --no-auth          skip the auth/* family (expected failures)
  --expect-fail <re> also treat matching scenarios as expected failures (repeatable;
                     env CONFORMANCE_EXPECT_FAIL, comma-separated regexes)
  --timeout <ms>     per-scenario client timeout handed to the suite (default 15000)
  --budget <s>       wall-clock budget for the whole run; entries not started by then
                     are reported as not-run failures (default 600)
  --jobs <n>         scenarios run in parallel (default 2)
  --results <dir>    where per-scenario output goes (default .cache/conformance/results/<stamp>)
  --doc              also rewrite the results section of docs/conformance.md (npm run docs);
                     without it the section goes to <results>/conformance.md only
  --no-doc           the default (kept for old command lines)
  --help             this text

Exit status: 0 all required scenarios passed without warnings; 1 some failed;
2 setup problem (suite not installed, client missing, listing failed).`;

function parseArgs(argv) {
  const o = {
    client: process.env.CONFORMANCE_CLIENT_CMD || '',
    only: /** @type {RegExp | null} */ (null),
    perScenario: false,
    auth: true,
    timeout: Number(process.env.CONFORMANCE_TIMEOUT_MS || 15000),
    budget: Number(process.env.CONFORMANCE_BUDGET_S || 600),
    jobs: Number(process.env.CONFORMANCE_JOBS || 2),
    results: '',
    doc: false,
    expectFail: [
      ...KNOWN_GAPS,
      ...(process.env.CONFORMANCE_EXPECT_FAIL || '')
        .split(',')
        .filter(Boolean)
        .map((r) => new RegExp(r)),
    ],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) die(2, `missing value for ${a}`);
      return argv[++i];
    };
    if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (a === '--client') o.client = val();
    else if (a === '--only') {
      o.only = new RegExp(val());
      o.perScenario = true;
    } else if (a === '--per-scenario') o.perScenario = true;
    else if (a === '--no-auth') o.auth = false;
    else if (a === '--expect-fail') o.expectFail.push(new RegExp(val()));
    else if (a === '--timeout') o.timeout = Number(val());
    else if (a === '--budget') o.budget = Number(val());
    else if (a === '--jobs') o.jobs = Number(val());
    else if (a === '--results') o.results = path.resolve(val());
    else if (a === '--doc') o.doc = true;
    else if (a === '--no-doc') o.doc = false;
    else die(2, `unknown option ${a}\n\n${HELP}`);
  }
  for (const k of ['timeout', 'budget', 'jobs']) {
    if (!Number.isFinite(o[k]) || o[k] <= 0) die(2, `--${k} must be a positive number`);
  }
  return o;
}

function die(code, msg) {
  console.error(`conformance: ${msg}`);
  process.exit(code);
}

const shq = (s) => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

// The suite runs the command through /bin/sh (dash here), which does not exec
// the last command: on timeout the suite kills only the shell, the client
// lives on holding the pipes, and the suite waits forever. "exec" fixes that.
function withExec(cmd) {
  const first = cmd.trim().split(/\s+/)[0] ?? '';
  if (first === 'exec' || first.includes('=')) return cmd.trim();
  return `exec ${cmd.trim()}`;
}

function suiteVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(SUITE_DIR, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

// `conformance list --client` prints "  - <name> [<tag>,<tag>]" under the
// "Client scenarios" heading. (The suite has no JSON listing; this is the
// only text we parse, and the required names are verified below.)
function listClientScenarios() {
  const r = spawnSync(process.execPath, [SUITE_BIN, 'list', '--client'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) die(2, `'conformance list --client' failed (${r.status}): ${r.stderr || r.error}`);
  const out = [];
  let inClient = false;
  for (const line of r.stdout.split('\n')) {
    if (/^\S/.test(line)) inClient = /^Client scenarios/.test(line);
    const m = inClient && line.match(/^\s+- (\S+)(?: \[([^\]]*)\])?\s*$/);
    if (m) out.push({ name: m[1], tags: (m[2] ?? '').split(',').filter(Boolean) });
  }
  if (out.length === 0) die(2, `could not parse any client scenario from:\n${r.stdout}`);
  return out;
}

function buildPlan(listing, opts) {
  const names = new Set(listing.map((s) => s.name));
  const missing = REQUIRED_NAMES.filter((n) => !names.has(n));
  for (const p of REQUIRED_PATTERNS) if (!listing.some((s) => p.test(s.name))) missing.push(String(p));
  if (missing.length) die(2, `suite ${suiteVersion()} lacks required scenario(s): ${missing.join(', ')}`);

  /** @type {Array<{ scenario: string; version: string | null; expect: string; tags: string[]; key?: string }>} */
  const plan = [];
  const notRun = [];
  for (const s of listing) {
    const expectedFail = EXPECTED_FAIL_PATTERNS.some((p) => p.test(s.name));
    const currentAuth =
      REQUIRED_AUTH.test(s.name) && s.tags.some((t) => t === LEGACY || t === MODERN || t === 'extension');
    const required =
      !expectedFail &&
      (REQUIRED_NAMES.includes(s.name) || REQUIRED_PATTERNS.some((p) => p.test(s.name)) || currentAuth);
    if (required) {
      // A scenario valid in both eras is run in both: the suite's mock server
      // differs (initialize handshake vs per-request _meta) and so do the checks.
      const eras = [LEGACY, MODERN].filter((v) => s.tags.includes(v));
      const expect = opts.expectFail.some((p) => p.test(s.name)) ? 'expected-fail' : 'pass';
      for (const v of eras.length ? eras : [null]) plan.push({ scenario: s.name, version: v, expect, tags: s.tags });
    } else if (expectedFail && opts.auth) {
      // Once each, at the version the suite infers (cheap; they are expected to fail).
      plan.push({ scenario: s.name, version: null, expect: 'expected-fail', tags: s.tags });
    } else {
      notRun.push(s.name);
    }
  }
  const key = (e) => `${e.scenario}@${e.version ?? 'default'}`;
  for (const e of plan) e.key = key(e);
  const only = opts.only;
  const filtered = only ? plan.filter((e) => only.test(e.key ?? '')) : plan;
  if (filtered.length === 0) die(2, `--only ${opts.only} matches nothing`);
  return { plan: filtered, notRun };
}

function findFile(dir, name) {
  if (!fs.existsSync(dir)) return null;
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isFile() && ent.name === name) return p;
    if (ent.isDirectory()) {
      const f = findFile(p, name);
      if (f) return f;
    }
  }
  return null;
}

function killGroup(pid, sig = 'SIGKILL') {
  try {
    process.kill(-pid, sig);
  } catch {
    /* group already gone */
  }
}

/**
 * Runs the suite's client runner once (`conformance client --command <client>
 * <selection> --timeout T -o <outDir>`), its output in <outDir>/suite.log. It
 * gets its own process group, so the watchdog can kill the suite AND the
 * client (and anything the client spawned) in one go.
 * @param {{ clientCmd: string, select: string[], timeout: number, outDir: string, watchdogMs: number }} run
 * @returns {Promise<{ outDir: string, logPath: string, code: number | null, signal: NodeJS.Signals | null,
 *   killed: boolean, spawnError: Error | null, ms: number }>}
 */
function runSuiteClient({ clientCmd, select, timeout, outDir, watchdogMs }) {
  fs.mkdirSync(outDir, { recursive: true });
  const logPath = path.join(outDir, 'suite.log');
  const fd = fs.openSync(logPath, 'w');
  const args = [SUITE_BIN, 'client', '--command', clientCmd, ...select, '--timeout', String(timeout), '-o', outDir];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      detached: true,
      stdio: ['ignore', fd, fd],
      env: process.env,
    });
    let killed = false;
    let finished = false;
    const watchdog = setTimeout(() => {
      killed = true;
      killGroup(child.pid);
    }, watchdogMs);
    const finish = (code, signal, spawnError) => {
      // A failed spawn may report both 'error' and 'exit'; the log is closed once.
      if (finished) return;
      finished = true;
      clearTimeout(watchdog);
      killGroup(child.pid); // leftovers (e.g. a client's own children)
      fs.closeSync(fd);
      resolve({ outDir, logPath, code, signal, killed, spawnError, ms: Date.now() - started });
    };
    child.on('error', (err) => finish(null, null, err));
    child.on('exit', (code, signal) => finish(code, signal, null));
  });
}

/** Counts a scenario's checks by status. */
function countStatuses(checks) {
  const count = (status) => checks.filter((c) => c.status === status).length;
  return {
    success: count('SUCCESS'),
    failure: count('FAILURE'),
    warning: count('WARNING'),
    skipped: count('SKIPPED'),
    info: count('INFO'),
  };
}

async function runOne(entry, ctx) {
  const run = await runSuiteClient({
    clientCmd: ctx.clientCmd,
    select: ['--scenario', entry.scenario, ...(entry.version ? ['--spec-version', entry.version] : [])],
    timeout: ctx.timeout,
    outDir: path.join(ctx.resultsDir, entry.key.replace(/[^A-Za-z0-9@._-]/g, '_')),
    watchdogMs: Math.min(ctx.timeout + 20000, Math.max(5000, ctx.deadline - Date.now() + 5000)),
  });
  return assess(entry, run);
}

function assess(entry, run) {
  const log = fs.existsSync(run.logPath) ? fs.readFileSync(run.logPath, 'utf8') : '';
  const checksPath = findFile(run.outDir, 'checks.json');
  let checks = null;
  if (checksPath) {
    try {
      checks = JSON.parse(fs.readFileSync(checksPath, 'utf8'));
    } catch {
      checks = null;
    }
  }
  const by = (st) => (checks ?? []).filter((c) => c.status === st);
  const failed = by('FAILURE');
  const warned = by('WARNING');
  const counts = countStatuses(checks ?? []);
  const clientExit = log.match(/Client exited with code (-?\d+)/);
  const timedOut = /Client timed out after/.test(log);
  const skipped = /^SKIPPED: scenario/m.test(log);
  const suiteOk = run.code === 0 && !run.signal && !run.killed && !run.spawnError;

  const notes = [];
  if (run.spawnError) notes.push(`suite did not start: ${run.spawnError.message}`);
  if (run.killed) notes.push('killed by watchdog (suite hung)');
  if (skipped) notes.push('suite skipped the scenario at this version');
  if (!checksPath && !skipped) notes.push('no checks.json written');
  if (timedOut) notes.push('client timed out');
  if (clientExit) notes.push(`client exit ${clientExit[1]}${suiteOk ? ' (allowed by scenario)' : ''}`);
  const ids = (list) => [...new Set(list.map((c) => c.id))];
  if (failed.length) notes.push(`FAILED: ${ids(failed).join(', ')}`);
  if (warned.length) notes.push(`WARNING: ${ids(warned).join(', ')}`);
  if (!suiteOk && !notes.length) notes.push(`suite exit ${run.code ?? run.signal}`);

  const clean = suiteOk && checks !== null && !skipped && failed.length === 0 && warned.length === 0;
  const stderrPath = findFile(run.outDir, 'stderr.txt');
  const clientStderrTail = !clean && stderrPath ? fs.readFileSync(stderrPath, 'utf8').slice(-1500) : undefined;
  const status = entry.expect === 'pass' ? (clean ? 'pass' : 'fail') : clean ? 'now-passing' : 'expected-fail';
  return {
    scenario: entry.scenario,
    specVersion: entry.version ?? 'default',
    expect: entry.expect,
    status,
    warnings: warned.length,
    counts,
    suiteExit: run.code,
    clientExit: clientExit ? Number(clientExit[1]) : null,
    clientTimedOut: timedOut,
    durationMs: run.ms,
    notes,
    failedChecks: failed.map((c) => ({ id: c.id, name: c.name, errorMessage: c.errorMessage })),
    warningChecks: warned.map((c) => ({ id: c.id, name: c.name, errorMessage: c.errorMessage })),
    clientStderrTail,
    outDir: path.relative(REPO, run.outDir),
  };
}

async function runPlan(plan, ctx) {
  const results = new Array(plan.length);
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const i = next++;
      const e = plan[i];
      if (Date.now() >= ctx.deadline) {
        results[i] = {
          scenario: e.scenario,
          specVersion: e.version ?? 'default',
          expect: e.expect,
          status: e.expect === 'pass' ? 'fail' : 'expected-fail',
          warnings: 0,
          counts: { success: 0, failure: 0, warning: 0, skipped: 0, info: 0 },
          durationMs: 0,
          notes: ['not run: time budget exhausted'],
          failedChecks: [],
          warningChecks: [],
        };
        continue;
      }
      results[i] = await runOne(e, ctx);
      const r = results[i];
      console.error(
        `  ${r.status.padEnd(13)} ${e.key} ` +
          `(${(r.durationMs / 1000).toFixed(1)} s)${r.notes.length ? ' - ' + r.notes.join('; ').slice(0, 160) : ''}`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.jobs, plan.length) }, worker));
  return results;
}

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function checksCell(r) {
  const c = r.counts;
  let s = `${c.success}/${c.success + c.failure} passed`;
  if (c.skipped) s += `, ${c.skipped} skipped`;
  return s;
}

function markdown(summary) {
  const L = [];
  L.push(MARK_BEGIN);
  L.push('<!-- Generated by scripts/conformance-run.mjs on every run; edit the script, not this block. -->');
  L.push('');
  L.push('## Latest results');
  L.push('');
  L.push(`- Date: ${summary.date}`);
  L.push(`- Suite: \`@modelcontextprotocol/conformance@${summary.suiteVersion}\` on Node ${summary.suiteNode}`);
  L.push(`- Client under test: \`${summary.clientCommandDisplay}\` (client \`node\` on PATH: ${summary.clientNode})`);
  L.push(
    `- Per-scenario client timeout ${summary.timeoutMs} ms, ${summary.jobs} in parallel, ` +
      `whole run ${(summary.durationMs / 1000).toFixed(1)} s`,
  );
  if (summary.history)
    L.push(
      `- History: every client recorded into one journal; \`countersign history verify\`: ` +
        `${summary.history.ok ? 'intact' : 'BROKEN'}, ${summary.history.entries} entries`,
    );
  const req = summary.results.filter((r) => r.expect === 'pass');
  const ok = req.filter((r) => r.status === 'pass').length;
  const nowPassing = summary.results.filter((r) => r.status === 'now-passing');
  L.push(
    `- Verdict: **${ok}/${req.length} required runs passed**${summary.exitCode ? ' - run FAILED' : ''}; ` +
      `${summary.results.filter((r) => r.status === 'expected-fail').length} expected failures` +
      (nowPassing.length
        ? '; **now passing (remove from expected failures): ' +
          `${nowPassing.map((r) => `${r.scenario}@${r.specVersion}`).join(', ')}**`
        : ''),
  );
  L.push('');
  L.push('| Scenario | Spec version | Status | Warnings | Checks | Time | Notes |');
  L.push('| --- | --- | --- | ---: | --- | ---: | --- |');
  for (const r of summary.results) {
    const notes = r.notes.join('; ');
    L.push(
      `| \`${cell(r.scenario)}\` | ${r.specVersion} | ${r.status} | ${r.warnings} | ${checksCell(r)} | ` +
        `${(r.durationMs / 1000).toFixed(1)} s | ${cell(notes.length > 300 ? notes.slice(0, 297) + '...' : notes)} |`,
    );
  }
  L.push('');
  if (summary.notRun.length) {
    L.push(
      `Client scenarios in the suite not run by this script: ${summary.notRun.map((n) => `\`${n}\``).join(', ')}.`,
    );
    L.push('');
  }
  L.push(
    'Per-scenario output (checks.json, client stdout/stderr, suite.log) and summary.json: ' +
      `\`${summary.resultsDirDisplay}\`${summary.resultsDirDisplay.startsWith('.cache') ? ' (git-ignored)' : ''}.`,
  );
  L.push(MARK_END);
  return L.join('\n');
}

async function writeDoc(block) {
  let text = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : '# MCP conformance\n\n';
  const b = text.indexOf(MARK_BEGIN);
  const e = text.indexOf(MARK_END);
  if (b !== -1 && e > b) text = text.slice(0, b) + block + text.slice(e + MARK_END.length);
  else text = text.replace(/\s*$/, '\n\n') + block + '\n';
  fs.mkdirSync(path.dirname(DOC), { recursive: true });
  fs.writeFileSync(DOC, await formatMarkdown(DOC, text));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) die(2, `the suite needs Node >= 22, this is ${process.version}; run scripts/conformance.sh`);
  const version = suiteVersion();
  if (!version || !fs.existsSync(SUITE_BIN))
    die(2, `suite not installed under ${SUITE_DIR}; run scripts/conformance.sh`);
  if (process.env.CONFORMANCE_SUITE_VERSION && process.env.CONFORMANCE_SUITE_VERSION !== version) {
    die(2, `installed suite is ${version}, expected ${process.env.CONFORMANCE_SUITE_VERSION}`);
  }

  let clientCmd = opts.client;
  if (!clientCmd) {
    if (!fs.existsSync(CLIENT_BIN)) {
      die(
        2,
        `${path.relative(REPO, CLIENT_BIN)} does not exist yet; ` +
          'pass --client "<cmd>" (or CONFORMANCE_CLIENT_CMD) to test another client',
      );
    }
    // Scenarios run in parallel, and every client records its questions into the
    // run's own history (the journal takes several writers); verified after the run.
    clientCmd = adapterCommand();
  }
  const displayCmd = clientCmd.split(REPO).join('<repo>');
  clientCmd = withExec(clientCmd);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = path.resolve(opts.results || path.join(CACHE, 'results', stamp));
  fs.mkdirSync(resultsDir, { recursive: true });
  // The clients' data folder (history included): this run's, not the user's.
  const dataDir = path.join(resultsDir, 'data');
  process.env.COUNTERSIGN_DATA_DIR = dataDir;
  if (!opts.perScenario) return runRequirementSets({ clientCmd, displayCmd, resultsDir, version, opts });

  const listing = listClientScenarios();
  const { plan, notRun } = buildPlan(listing, opts);
  const clientNode = spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'unknown';

  const t0 = Date.now();
  const ctx = { clientCmd, timeout: opts.timeout, jobs: opts.jobs, resultsDir, deadline: t0 + opts.budget * 1000 };
  console.error(
    `conformance: suite ${version}, ${plan.length} runs ` +
      `(${plan.filter((e) => e.expect === 'pass').length} required), client: ${displayCmd}`,
  );
  const results = await runPlan(plan, ctx);
  const durationMs = Date.now() - t0;

  const required = results.filter((r) => r.expect === 'pass');
  const failedReq = required.filter((r) => r.status !== 'pass');
  // Every client of the run wrote into one journal, in parallel: it must be one intact chain.
  let history = null;
  if (!opts.client && fs.existsSync(path.join(dataDir, 'history'))) {
    const v = spawnSync(
      process.execPath,
      [CLIENT_BIN, 'history', 'verify', '--json', '--dir', path.join(dataDir, 'history')],
      {
        encoding: 'utf8',
        timeout: 120000,
      },
    );
    try {
      const report = JSON.parse(v.stdout);
      history = { ok: report.ok === true && v.status === 0, entries: report.entries, firstBreak: report.firstBreak };
    } catch {
      history = { ok: false, entries: 0, error: (v.stderr || v.stdout || '').trim().slice(0, 500) };
    }
    console.error(`conformance: history of the run: ${history.ok ? 'intact' : 'BROKEN'}, ${history.entries} entries`);
  }
  const exitCode = failedReq.length || (history && !history.ok) ? 1 : 0;
  const summary = {
    date: new Date().toISOString(),
    suiteVersion: version,
    suiteNode: process.versions.node,
    clientCommand: clientCmd,
    clientCommandDisplay: displayCmd,
    clientNode,
    timeoutMs: opts.timeout,
    jobs: opts.jobs,
    durationMs,
    exitCode,
    history,
    resultsDir,
    resultsDirDisplay: resultsDir.startsWith(REPO + path.sep) ? path.relative(REPO, resultsDir) : resultsDir,
    notRun,
    results,
  };
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify(summary, null, 2));
  // Stable location for other tooling (scripts/test-summary.mjs reads
  // .scenarios[].status: pass | fail | expected-fail | now-passing).
  fs.writeFileSync(
    path.join(REPO, '.cache', 'conformance-results.json'),
    JSON.stringify({ ...summary, scenarios: results }, null, 2),
  );
  try {
    const latest = path.join(CACHE, 'results', 'latest');
    if (resultsDir.startsWith(path.join(CACHE, 'results'))) {
      fs.rmSync(latest, { force: true });
      fs.symlinkSync(path.basename(resultsDir), latest);
    }
  } catch {
    /* cosmetic only */
  }
  const block = markdown(summary);
  fs.writeFileSync(path.join(resultsDir, 'conformance.md'), await formatMarkdown(DOC, block + '\n'));
  if (opts.doc) await writeDoc(block);

  console.log('');
  console.log('scenario'.padEnd(44) + 'version'.padEnd(12) + 'status'.padEnd(15) + 'warn  checks');
  for (const r of results) {
    console.log(
      `${r.scenario.padEnd(44)}${r.specVersion.padEnd(12)}${r.status.padEnd(15)}${String(r.warnings).padEnd(6)}` +
        `${checksCell(r)}`,
    );
  }
  for (const r of failedReq) console.log(`\nFAIL ${r.scenario}@${r.specVersion}: ${r.notes.join('; ')}`);
  const np = results.filter((r) => r.status === 'now-passing');
  if (np.length)
    console.log(`\nNow passing (expected to fail): ${np.map((r) => `${r.scenario}@${r.specVersion}`).join(', ')}`);
  console.log(
    `\nresults: ${summary.resultsDirDisplay}/summary.json, ` +
      `conformance.md${opts.doc ? ', docs/conformance.md' : ''}; ${(durationMs / 1000).toFixed(1)} s`,
  );
  console.log(`conformance: ${required.length - failedReq.length} passed, ${failedReq.length} failed`);
  process.exit(exitCode);
}

/** Bundle the adapter once (esbuild) so parallel clients start fast; the command names the bundle. */
function adapterCommand() {
  const esbuild = path.join(REPO, 'node_modules', '.bin', 'esbuild');
  fs.mkdirSync(path.dirname(ADAPTER_BUNDLE), { recursive: true });
  const r = spawnSync(
    esbuild,
    [
      ADAPTER_SOURCE,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      `--outfile=${ADAPTER_BUNDLE}`,
      '--log-level=error',
    ],
    { encoding: 'utf8', timeout: 120000 },
  );
  if (r.status !== 0) die(2, `cannot bundle the conformance adapter: ${r.stderr || r.error}`);
  return `env COUNTERSIGN_ADAPTER_BUNDLE=${shq(ADAPTER_BUNDLE)} node ${shq(ADAPTER)}`;
}

/** Scenario directories the suite wrote under `dir` (name-<stamp>/checks.json), by scenario name. */
function collectChecks(dir) {
  /** @type {Map<string, any[]>} */
  const out = new Map();
  const walk = (d) => {
    if (!fs.existsSync(d)) return;
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, ent.name);
      if (!ent.isDirectory()) continue;
      const checks = path.join(p, 'checks.json');
      if (fs.existsSync(checks)) {
        const name = path.relative(dir, p).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
        try {
          out.set(name, JSON.parse(fs.readFileSync(checks, 'utf8')));
        } catch {
          out.set(name, []);
        }
      } else walk(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * Run each requirement set the way the suite runs itself (`--requirements`,
 * its scenarios in parallel), both sets at once, and fail on any regression:
 * a scored scenario that does not pass cleanly, a warning anywhere, or a
 * not-scored scenario failing that is not an expected failure.
 */
async function runRequirementSets({ clientCmd, displayCmd, resultsDir, version, opts }) {
  const t0 = Date.now();
  const timeout = Math.max(opts.timeout, Number(process.env.CONFORMANCE_SET_TIMEOUT_MS || 120000));
  console.error(
    `conformance: suite ${version}, requirement sets ${REQUIREMENT_SETS.join(' and ')} in parallel, client: ` +
      `${displayCmd}`,
  );
  const runOne = async (rev) => {
    const run = await runSuiteClient({
      clientCmd,
      select: ['--requirements', rev],
      timeout,
      outDir: path.join(resultsDir, rev),
      watchdogMs: opts.budget * 1000,
    });
    return { rev, code: run.code, outDir: run.outDir, log: fs.readFileSync(run.logPath, 'utf8') };
  };
  // One set after the other by default: each set runs all its scenarios in
  // parallel, as the suite does, and both sets at once (50 clients) starve a
  // loaded 2-core machine into client timeouts. CONFORMANCE_SETS_PARALLEL=1 runs both at once.
  const runs =
    process.env.CONFORMANCE_SETS_PARALLEL !== '1'
      ? await REQUIREMENT_SETS.reduce(
          async (acc, rev) => [...(await acc), await runOne(rev)],
          Promise.resolve(/** @type {any[]} */ ([])),
        )
      : await Promise.all(REQUIREMENT_SETS.map(runOne));
  const results = [];
  for (const run of /** @type {any[]} */ (runs)) {
    const checks = collectChecks(run.outDir);
    // The suite's own summary names every scenario it ran, scored or not.
    const notScored = new Map();
    let inNotScored = false;
    const ran = new Set();
    for (const line of run.log.split('\n')) {
      if (/^Not scored/.test(line)) inNotScored = true;
      const m = line.match(/^\s*[✓✗] (\S+?)(?::| \(([^)]+)\))/);
      if (m) {
        ran.add(m[1]);
        if (inNotScored) notScored.set(m[1], m[2] ?? 'not scored');
      }
    }
    for (const name of new Set([...ran, ...checks.keys()])) {
      const list = checks.get(name) ?? [];
      const failed = list.filter((c) => c.status === 'FAILURE');
      const warned = list.filter((c) => c.status === 'WARNING');
      const clean = checks.has(name) && failed.length === 0 && warned.length === 0;
      const scored = !notScored.has(name);
      const expectedFail = !scored && name in NOT_SCORED_EXPECTED_FAIL;
      const status = clean ? (expectedFail ? 'now-passing' : 'pass') : expectedFail ? 'expected-fail' : 'fail';
      results.push({
        scenario: name,
        specVersion: run.rev,
        expect: expectedFail ? 'expected-fail' : 'pass',
        scored,
        ...(scored ? {} : { notScoredReason: notScored.get(name) }),
        status,
        warnings: warned.length,
        counts: countStatuses(list),
        durationMs: 0,
        notes: [
          ...(checks.has(name) ? [] : ['no checks.json written']),
          ...(failed.length ? [`FAILED: ${[...new Set(failed.map((c) => c.id))].join(', ')}`] : []),
          ...(warned.length ? [`WARNING: ${[...new Set(warned.map((c) => c.id))].join(', ')}`] : []),
          ...(expectedFail ? [`expected failure: ${NOT_SCORED_EXPECTED_FAIL[name]}`] : []),
        ],
        failedChecks: failed.map((c) => ({ id: c.id, name: c.name, errorMessage: c.errorMessage })),
        warningChecks: warned.map((c) => ({ id: c.id, name: c.name, errorMessage: c.errorMessage })),
        outDir: path.relative(REPO, run.outDir),
      });
    }
  }
  results.sort((a, b) => a.specVersion.localeCompare(b.specVersion) || a.scenario.localeCompare(b.scenario));
  const durationMs = Date.now() - t0;
  const regressions = results.filter((r) => r.status === 'fail');
  const exitCode = regressions.length ? 1 : 0;
  const summary = {
    date: new Date().toISOString(),
    mode: 'requirements',
    requirementSets: REQUIREMENT_SETS,
    suiteVersion: version,
    suiteNode: process.versions.node,
    clientCommand: clientCmd,
    clientCommandDisplay: displayCmd,
    clientNode: spawnSync('node', ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'unknown',
    timeoutMs: timeout,
    jobs: 'all (the suite runs a requirement set in parallel)',
    durationMs,
    exitCode,
    resultsDir,
    resultsDirDisplay: resultsDir.startsWith(REPO + path.sep) ? path.relative(REPO, resultsDir) : resultsDir,
    notRun: [],
    results,
  };
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify(summary, null, 2));
  fs.writeFileSync(
    path.join(REPO, '.cache', 'conformance-results.json'),
    JSON.stringify({ ...summary, scenarios: results }, null, 2),
  );
  const block = markdown(summary);
  fs.writeFileSync(path.join(resultsDir, 'conformance.md'), await formatMarkdown(DOC, block + '\n'));
  if (opts.doc) await writeDoc(block);
  console.log('');
  for (const r of results)
    console.log(
      `${r.scenario.padEnd(44)}${r.specVersion.padEnd(12)}${(r.scored ? '' : '(not scored) ').padEnd(14)}${r.status}`,
    );
  for (const r of regressions) console.log(`\nFAIL ${r.scenario}@${r.specVersion}: ${r.notes.join('; ')}`);
  const scored = results.filter((r) => r.scored);
  console.log(`\nresults: ${summary.resultsDirDisplay}; ${(durationMs / 1000).toFixed(1)} s`);
  console.log(
    `conformance: ${scored.filter((r) => r.status === 'pass').length}/${scored.length} scored runs passed; ` +
      `${results.length - regressions.length} passed or expected, ${regressions.length} failed`,
  );
  process.exit(exitCode);
}

main().catch((err) => die(2, err?.stack || String(err)));
