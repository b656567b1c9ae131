import { describe, expect, it } from 'vitest';
import { AgentTaskIds } from './agent-task-ids';

describe('agent task ids', () => {
  it('are unguessable per task and carry the process generation', () => {
    const ids = new AgentTaskIds();
    const a = ids.next();
    const b = ids.next();
    expect(a).not.toBe(b);
    expect(a.slice(0, 11)).toBe(b.slice(0, 11));
    expect(a).toMatch(/^gw[0-9a-f]{8}-[0-9a-f-]{36}$/);
  });

  it("name an earlier process's id as such, and read alike for any other unknown id", () => {
    const before = new AgentTaskIds().next();
    const now = new AgentTaskIds();
    const earlier = now.unknown(before);
    expect(earlier.code).toBe(-32602);
    expect(earlier.message).toContain(
      `Task not found: "${before}": it was not made by this Countersign gateway process`,
    );
    // Its own id that the caller does not own, a made-up one and a non-string: the same reason.
    for (const id of [now.next(), 'made-up', 42]) {
      expect(now.unknown(id).message).toMatch(/: it is not a task of this agent connection \(never made here/);
    }
    expect(now.unknown(42).message).toContain('Task not found: with no id:');
  });
});
