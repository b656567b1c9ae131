// What following a task costs while nothing happens: tasks/get requests per
// minute per idle task (10 idle tasks; the server suggests a 1 s interval and
// the host backs off to 8x that while a task is unchanged), the host's CPU
// per request (10 tasks polled fast, in blocks alternated with blocks
// following none, side by side on one host: an idle process's own CPU noise
// swamps a few requests a minute), and the requests left when the server
// pushes the status (subscriptions/listen). The tasks are the fixture's
// `outlive_ttl` flow made idle (one progress note every few minutes, a ttl of
// an hour). CPU is process.cpuUsage() of this process, which runs the host;
// the server is a child process and not counted.
// Run alone:  npm run bench -- tasks
import { performance } from 'node:perf_hooks';
import { ScriptedPrompter } from '../electron/cli/elicit-spec';
import { Host } from '../electron/core/host';
import { fixtureCommand, newWireLogPath, readWireLog } from '../test/fixtures/spawn-fixture';
import type { Figure } from './sections';

const TASKS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A host on one task fixture (pushes offered or not), connected. */
async function hostOn(push: boolean, pollMs: number) {
  const wireLog = newWireLogPath(push ? 'bench-tasks-push' : 'bench-tasks');
  const { command, args } = fixtureCommand('tasks-modern');
  const env: Record<string, string> = {
    FIXTURE_WIRE_LOG: wireLog,
    FIXTURE_TASK_POLL_MS: String(pollMs),
    FIXTURE_TASK_SHORT_TTL_MS: '3600000',
    FIXTURE_TASK_STEP_MS: '60000',
    ...(push ? { FIXTURE_TASK_PUSH: '1' } : {}),
  };
  const host = new Host({
    servers: { fx: { command, args, env } },
    prompter: new ScriptedPrompter([]),
    maxTasksPerServer: TASKS,
  });
  await host.connect('fx');
  return { host, wireLog };
}

/** Start `n` idle tasks; resolves once every one is followed. Aborting `signal` stops following them. */
async function startIdle(
  host: Host,
  n: number,
  signal: AbortSignal,
): Promise<{ started: number; ended: Promise<unknown> }> {
  const started = Date.now();
  const calls: Array<Promise<unknown>> = [];
  for (let i = 0; i < n; i++)
    calls.push(host.call({ server: 'fx', method: 'tools/call', name: 'outlive_ttl', signal }).catch(() => undefined));
  while ((await host.tasks.list()).filter((t) => t.endedAt === undefined).length < n) await sleep(50);
  return { started, ended: Promise.all(calls) };
}

/** CPU (ms) this process used over a window of `ms`, and the window's real length. */
async function window(ms: number): Promise<{ cpuMs: number; from: number; to: number }> {
  const from = Date.now();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(ms);
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  return { cpuMs: (c.user + c.system) / 1000, from, to: from + wall };
}

const getsBetween = (wireLog: string, from: number, to: number) =>
  readWireLog(wireLog).filter((e) => e.dir === 'in' && e.msg?.method === 'tasks/get' && e.t >= from && e.t < to).length;

const perMinute = (count: number, from: number, to: number) => (count * 60_000) / (to - from);
const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

export async function benchTaskPolling(): Promise<Figure[]> {
  const windowMs = Number(process.env.BENCH_TASK_WINDOW_MS ?? 30_000);
  // Long enough for the backoff to reach its cap (1, 1, 1.5, 2.25, … 8 s).
  const warmupMs = Number(process.env.BENCH_TASK_WARMUP_MS ?? 30_000);
  const cpuBlockMs = Number(process.env.BENCH_TASK_CPU_BLOCK_MS ?? 10_000);

  // 1. Requests: 10 idle tasks at the server's 1 s suggestion, first seconds and backed off.
  const polled = await hostOn(false, 1000);
  let idle: Awaited<ReturnType<typeof window>>;
  let firstGets: number;
  try {
    const { started } = await startIdle(polled.host, TASKS, new AbortController().signal);
    await sleep(warmupMs);
    firstGets = getsBetween(polled.wireLog, started, started + 20_000);
    idle = await window(windowMs);
  } finally {
    await polled.host.close();
  }
  const idlePerMin = perMinute(getsBetween(polled.wireLog, idle.from, idle.to), idle.from, idle.to);

  // 2. CPU per request, where it rises above the noise of an idle process: the same 10 tasks polled
  //    every 100-800 ms, in blocks alternated with blocks where the host follows none of them (it lets
  //    go without cancelling, and picks them up again, as after a restart).
  const busy = await hostOn(false, 100);
  let onMs = 0;
  let offMs = 0;
  let onWall = 0;
  let offWall = 0;
  let onGets = 0;
  try {
    await startIdle(busy.host, TASKS, new AbortController().signal);
    for (let i = 0; i < 3; i++) {
      const on = await window(cpuBlockMs);
      onMs += on.cpuMs;
      onWall += on.to - on.from;
      onGets += getsBetween(busy.wireLog, on.from, on.to);
      busy.host.tasks.detachAll();
      await sleep(300);
      const off = await window(cpuBlockMs);
      offMs += off.cpuMs;
      offWall += off.to - off.from;
      for (const r of await busy.host.tasks.resume()) r.done.catch(() => undefined);
    }
  } finally {
    await busy.host.close();
  }
  const cpuPerGet = onGets > 0 ? ((onMs / onWall - offMs / offWall) * onWall) / onGets : 0;

  // 3. The same idle tasks when the server pushes their status: the host polls only as a backstop.
  const pushed = await hostOn(true, 1000);
  let push: Awaited<ReturnType<typeof window>>;
  try {
    await startIdle(pushed.host, TASKS, new AbortController().signal);
    await sleep(5_000);
    push = await window(windowMs);
  } finally {
    await pushed.host.close();
  }
  const pushPerMin = perMinute(getsBetween(pushed.wireLog, push.from, push.to), push.from, push.to);

  return [
    {
      name: 'tasks/get per idle task in its first 20 s (server suggests 1 s)',
      value: round(firstGets / TASKS, 1),
      unit: 'requests',
      goal: null,
    },
    {
      name: 'tasks/get per minute per idle task, backed off (server suggests 1 s)',
      value: round(idlePerMin / TASKS),
      unit: 'req/min',
      goal: 8,
    },
    {
      name: 'tasks/get per minute per idle task while the server pushes its status (backstop poll)',
      value: round(pushPerMin / TASKS),
      unit: 'req/min',
      goal: null,
    },
    {
      name: `host CPU following ${TASKS} tasks polled every 0.1-0.8 s, blocks alternated with following none`,
      value: round((onMs * 60_000) / onWall, 1),
      unit: 'ms/min',
      goal: null,
    },
    {
      name: 'host CPU following none (same host, same blocks)',
      value: round((offMs * 60_000) / offWall, 1),
      unit: 'ms/min',
      goal: null,
    },
    { name: 'host CPU per tasks/get (difference / requests)', value: round(cpuPerGet, 3), unit: 'ms', goal: null },
    {
      name: 'host CPU per idle task, backed off at a 1 s suggestion (req/min × CPU per request)',
      value: round((idlePerMin / TASKS) * cpuPerGet, 2),
      unit: 'ms/min',
      goal: null,
    },
  ];
}
