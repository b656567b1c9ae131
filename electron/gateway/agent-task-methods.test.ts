// The two eras name a task's durations differently (ttl/pollInterval in
// 2025-11-25, ttlMs/pollIntervalMs in the 2026-07-28 extension); everything
// else they say alike. An agent reads exactly these keys, so they are pinned.
import { describe, expect, it } from 'vitest';
import type { AgentTask } from './agent-tasks';
import { legacyTaskView, modernTaskView } from './agent-task-methods';

const task: AgentTask = {
  taskId: 't-1',
  owner: 'agent-a',
  status: 'completed',
  statusMessage: 'the call finished',
  createdAt: '2026-12-02T03:00:00.000Z',
  lastUpdatedAt: '2026-12-02T03:00:05.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 500,
  outcome: { kind: 'result', result: { content: [] } },
};

const shared = {
  taskId: 't-1',
  status: 'completed',
  statusMessage: 'the call finished',
  createdAt: '2026-12-02T03:00:00.000Z',
  lastUpdatedAt: '2026-12-02T03:00:05.000Z',
};

describe('task views', () => {
  it('a 2025-11-25 Task names its durations ttl and pollInterval, and carries no owner or outcome', () => {
    expect(legacyTaskView(task)).toStrictEqual({ ...shared, ttl: 60_000, pollInterval: 500 });
  });

  it('a 2026-07-28 task names them ttlMs and pollIntervalMs, and carries no owner or outcome', () => {
    expect(modernTaskView(task)).toStrictEqual({ ...shared, ttlMs: 60_000, pollIntervalMs: 500 });
  });
});
