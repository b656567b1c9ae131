// `countersign test`: run a script of scripted answers and assertions
// against one server, in each protocol era it speaks, and report per step
// (terminal), per case (JUnit) or as one JSON object. Exit 0 when every step
// passed, 1 when an assertion failed, 2 when the script or a session failed.
//
// History: a test run answers with scripted answers, not a human, so it is
// kept out of the user's history journal: the journal is simply not opened
// unless --history is given.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { EraCache, EraVerdict } from '../core/connection/era-cache';
import { MemoryEraCache } from '../core/connection/era-cache';
import { HostError, isHostError, messageOf } from '../core/host-error';
import { positiveInt } from './call-command';
import { errorLine, type CliIo } from './io';
import { ScriptSyntaxError, parseScript } from './scripted-test/parser';
import { exitCodeOf, type EraEntry, type TestReport } from './scripted-test/report';
import { eraHeading, stepLine, summaryLines } from './scripted-test/report-human';
import { jsonReport } from './scripted-test/report-json';
import { junitErrorReport, junitReport } from './scripted-test/report-junit';
import { CallRecorder, QueuedAnswers, runScript, type EraSession } from './scripted-test/runner';
import type { Script } from './scripted-test/steps';
import { openSession, TARGET_OPTIONS, type CliSession } from './session';
import { resolveTarget, type ResolvedTarget } from './target';
import { DEFAULT_MAX_ROUNDS } from '../../shared/round-limit';
import { terminalText } from '../../shared/terminal-text';

export const TEST_USAGE =
  'usage: countersign test <script> ' +
  `(--stdio "<command line>" | --url <url> | --server <name> [--config <file>])
         [-s <script>] [--era modern|legacy|both] [--junit <file>] [--json] [--history] [--max-rounds N]
  runs the script's steps in order on one session per era (default: both eras where the server speaks both)
  exit 0: every step passed; 1: an assertion failed; 2: the script or a session failed (docs/testing.md)`;

type EraChoice = 'modern' | 'legacy' | 'both';

/** An era cache that always answers "legacy", so the connection starts with `initialize`. */
function legacyPin(): EraCache {
  const verdict: EraVerdict = { era: 'legacy', at: Date.now() };
  return { get: () => verdict, set: () => undefined, delete: () => undefined };
}

interface OpenedEra {
  cli: CliSession;
  session: EraSession;
}

/** Run `countersign test`; returns the exit code. */
export async function runTestCommand(argv: string[], io: CliIo): Promise<number> {
  let junitFile: string | undefined;
  let json = false;
  let scriptFile = '(script)';
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...TARGET_OPTIONS,
        script: { type: 'string', short: 's' },
        era: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'boolean' },
        history: { type: 'boolean' },
        'max-rounds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout(TEST_USAGE);
      return 0;
    }
    junitFile = values.junit;
    json = values.json === true;
    const files = [...positionals, ...(values.script !== undefined ? [values.script] : [])];
    if (files.length !== 1)
      throw new HostError('config', 'give exactly one script: countersign test <script> (or -s <script>)');
    scriptFile = files[0]!;
    const era = (values.era ?? 'both') as EraChoice;
    if (!['modern', 'legacy', 'both'].includes(era))
      throw new HostError('config', `--era must be modern, legacy or both, not ${JSON.stringify(values.era)}`);
    const maxRounds = positiveInt('--max-rounds', values['max-rounds'], DEFAULT_MAX_ROUNDS);
    let text: string;
    try {
      text = await readFile(scriptFile, 'utf8');
    } catch (e) {
      throw new HostError(
        'config',
        `cannot read script ${scriptFile}: ${(e as NodeJS.ErrnoException).code ?? messageOf(e)}`,
      );
    }
    const script = parseScript(text, scriptFile);
    const target = await resolveTarget(values, io.env);
    const report = await runEras(script, target, era, {
      io,
      maxRounds,
      history: values.history === true,
      print: json ? () => undefined : (line) => io.stdout(line),
    });
    if (json) io.stdout(JSON.stringify(jsonReport(report)));
    else for (const line of summaryLines(report)) io.stdout(line);
    if (junitFile) await writeFile(junitFile, junitReport(report));
    return exitCodeOf(report);
  } catch (error) {
    const message =
      error instanceof ScriptSyntaxError || isHostError(error) ? error.message : `unexpected: ${messageOf(error)}`;
    io.stderr(errorLine(message));
    // --json readers get an object on every path, as with `call --json`.
    if (json) {
      const where = error instanceof ScriptSyntaxError ? { file: error.file, line: error.line, col: error.col } : {};
      const code = error instanceof ScriptSyntaxError ? 'script' : isHostError(error) ? error.code : 'unexpected';
      io.stdout(JSON.stringify({ script: scriptFile, error: { code, message, ...where }, exitCode: 2 }));
    }
    if (junitFile) await writeFile(junitFile, junitErrorReport(scriptFile, message)).catch(() => undefined);
    return 2;
  }
}

/** Run the script in each era asked for; an era the server does not speak is skipped (both) or an error (explicit). */
async function runEras(
  script: Script,
  target: ResolvedTarget,
  choice: EraChoice,
  ctx: { io: CliIo; maxRounds: number; history: boolean; print: (line: string) => void },
): Promise<TestReport> {
  const report: TestReport = { script: script.file, server: target.name, eras: [] };
  ctx.print(`countersign test ${terminalText(script.file)} on ${terminalText(target.name)}`);
  const runOn = async (opened: OpenedEra, entry: EraEntry) => {
    ctx.print(eraHeading(opened.session.era, opened.session.protocolVersion));
    entry.run = await runScript(script, opened.session, {
      ...(ctx.io.signal ? { signal: ctx.io.signal } : {}),
      onStep: (o) => ctx.print(stepLine(o)),
    });
  };
  const open = async (eraCache: EraCache, entry: EraEntry): Promise<OpenedEra | undefined> => {
    try {
      return await openEra(target, eraCache, ctx);
    } catch (error) {
      entry.error = messageOf(error);
      return undefined;
    }
  };

  let modernRan = false;
  if (choice !== 'legacy') {
    // Auto-detection first: a server that answers server/discover speaks 2026-07-28.
    const entry: EraEntry = { era: 'modern' };
    report.eras.push(entry);
    const opened = await open(new MemoryEraCache(), entry);
    if (!opened) return report;
    try {
      if (opened.session.era === 'modern') {
        await runOn(opened, entry);
        modernRan = true;
      } else if (choice === 'modern') {
        entry.error = `${target.name} does not speak 2026-07-28 (it answered as ${opened.session.protocolVersion})`;
      } else {
        // Legacy only: this session is already the legacy one.
        entry.skipped = `${target.name} does not answer server/discover: it speaks only the legacy protocol`;
        const legacy: EraEntry = { era: 'legacy' };
        report.eras.push(legacy);
        await runOn(opened, legacy);
      }
    } finally {
      await opened.cli.close();
    }
  }
  if (choice === 'legacy' || (choice === 'both' && modernRan)) {
    const entry: EraEntry = { era: 'legacy' };
    report.eras.push(entry);
    const opened = await open(legacyPin(), entry);
    if (!opened) return report;
    try {
      if (opened.session.era === 'legacy') await runOn(opened, entry);
      else if (choice === 'legacy')
        entry.error =
          `${target.name} does not speak the legacy protocol (initialize was refused; ` +
          `it answered as ${opened.session.protocolVersion})`;
      else entry.skipped = `${target.name} refused initialize: it speaks only 2026-07-28`;
    } finally {
      await opened.cli.close();
    }
  }
  return report;
}

/** Open a Host on the target with the test's prompter and recorder, and connect. */
async function openEra(
  target: ResolvedTarget,
  eraCache: EraCache,
  ctx: { io: CliIo; maxRounds: number; history: boolean },
): Promise<OpenedEra> {
  const answers = new QueuedAnswers();
  const recorder = new CallRecorder();
  const cli = await openSession({
    io: ctx.io,
    target,
    prompter: answers,
    maxRounds: ctx.maxRounds,
    recordHistory: ctx.history,
    observers: [recorder],
    eraCache,
  });
  try {
    const conn = await cli.host.connect(target.name, ctx.io.signal);
    return {
      cli,
      session: {
        host: cli.host,
        server: target.name,
        era: conn.era,
        protocolVersion: conn.protocolVersion,
        answers,
        recorder,
      },
    };
  } catch (error) {
    await cli.close();
    throw error;
  }
}
