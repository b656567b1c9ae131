// Ids of the gateway's agent tasks, and the error for one it does not know.
// A handle stands for a call running inside this gateway process, bound to the
// agent connection that made it; neither the call nor the connection outlives
// the process, so handles are not persisted (docs/agents.md, "Tasks"). What a
// restarted gateway can do is say so: each id starts with this process's
// generation, so an id from another (earlier) process is told apart from one
// that never was, without saying anything about another connection's tasks.
import { randomBytes, randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

const ID_SHAPE = /^gw([0-9a-f]{8})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One gateway process's task ids: "gw<generation>-<uuid>", unguessable by the uuid. */
export class AgentTaskIds {
  private readonly generation = randomBytes(4).toString('hex');
  private readonly startedAt = new Date().toISOString();

  /** A fresh id for a task of this process. */
  next(): string {
    return `gw${this.generation}-${randomUUID()}`;
  }

  /**
   * The error for a task id the asking connection does not own (-32602, as the
   * Tasks extension says for an unknown task). The same for another
   * connection's task as for one that never existed; only an id of another
   * gateway process (an earlier one, after a restart) gets that reason, since
   * its shape says so.
   */
  unknown(taskId: unknown): ProtocolError {
    const shown = typeof taskId === 'string' ? JSON.stringify(taskId) : 'with no id';
    const earlier = typeof taskId === 'string' ? ID_SHAPE.exec(taskId) : null;
    const why =
      earlier && earlier[1] !== this.generation
        ? `it was not made by this Countersign gateway process (started ${this.startedAt}): ` +
          'a task handle belongs to the gateway process and agent connection that made it ' +
          'and does not survive a gateway restart; ' +
          'if that process has ended, the call it stood for ended with it, so call the tool again'
        : 'it is not a task of this agent connection (never made here, or it ended and was forgotten after its ttl); ' +
          'task handles live only as long as the gateway process and the agent connection that made them';
    return new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Failed to retrieve task: Task not found: ${shown}: ${why}`,
    );
  }
}
