// The wire operations of both eras on one SDK client. The SDK 2.4 client has
// no Tasks support for 2026-07-28 and only schemas for 2025-11-25, so every
// call here is a plain `client.request` with a schema of our own; the shapes
// are read by parseTask, which explains what is wrong with a bad one.
import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { vouchedAs } from '../../../shared/vouched-as';
import { HostError } from '../host-error';
import { translateSdkError } from '../calls/input-required-loop';
import type { TaskWireOps } from './task-driver';
import { parseTask, type TaskSnapshot } from './task-types';

const AnyResult = z.looseObject({});

/** Wire timeout for one tasks/* request (the wait for a human is not in it). */
const LEG_TIMEOUT_MS = 30_000;

function ack(signal?: AbortSignal) {
  return { timeout: LEG_TIMEOUT_MS, ...(signal ? { signal } : {}) };
}

/** tasks/get, tasks/update, tasks/cancel (and legacy tasks/result) on `client`. */
export function taskOps(client: Client, era: 'modern' | 'legacy', server: string): TaskWireOps {
  const request = async (method: string, params: Record<string, unknown>, options: Record<string, unknown>) => {
    const signal = options.signal as AbortSignal | undefined;
    try {
      // AnyResult (zod) checks the body is an object; parseTask reads it.
      return await client.request(vouchedAs({ method, params }), AnyResult, options);
    } catch (error) {
      throw translateSdkError(error, signal ?? new AbortController().signal);
    }
  };
  const ops: TaskWireOps = {
    era,
    async get(taskId, signal) {
      const raw = await request('tasks/get', { taskId }, ack(signal));
      try {
        return parseTask(raw, `server "${server}" answered tasks/get`);
      } catch (e) {
        throw new HostError('protocol', (e as Error).message);
      }
    },
    async cancel(taskId) {
      await request('tasks/cancel', { taskId }, ack());
    },
  };
  if (era === 'modern') {
    ops.update = async (taskId, responses, signal) => {
      await request('tasks/update', { taskId, inputResponses: responses }, ack(signal));
    };
  } else {
    // tasks/result blocks until the task ends; a long task may take hours.
    ops.result = (taskId, signal) => request('tasks/result', { taskId }, { signal, timeout: 7 * 24 * 3_600_000 });
  }
  return ops;
}

/** The task inside a legacy CreateTaskResult ({ task: {...} }), if the result is one. */
export function legacyTaskOf(result: Record<string, unknown>, server: string): TaskSnapshot | undefined {
  if (!('task' in result) || 'content' in result) return undefined;
  try {
    return parseTask(result.task, `server "${server}" answered a task-augmented tools/call`);
  } catch (e) {
    throw new HostError('protocol', (e as Error).message);
  }
}

/** A legacy task-augmented tools/call: the CreateTaskResult, or a plain result if the server ignored the task. */
export async function sendLegacyTaskCall(
  client: Client,
  params: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs?: number,
): Promise<Record<string, unknown>> {
  try {
    // AnyResult (zod) checks the body is an object; legacyTaskOf / the caller read it.
    return await client.request(vouchedAs({ method: 'tools/call', params }), AnyResult, {
      signal,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
    });
  } catch (error) {
    throw translateSdkError(error, signal);
  }
}
