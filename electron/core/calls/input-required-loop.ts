// The Multi Round-Trip Request loop of MCP 2026-07-28, driven by the host:
// send the call; while the server answers `input_required`, put every
// requested input to the human and re-send the ORIGINAL request on a new
// JSON-RPC id with `inputResponses` under the same keys and `requestState`
// echoed byte for byte (absent when the server sent none). Each call builds
// its own params, so neither field can leak into a parallel request.
import { randomUUID } from 'node:crypto';
import {
  SdkError,
  SdkErrorCode,
  isInputRequiredResult,
  withInputRequired,
  type Client,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import type { CallMethod } from '../../../shared/elicitation/types';
import { DECLARED_INPUT_METHODS, VERIFIED_APPROVAL_META } from '../client-identity';
import type { CallContext } from '../events';
import { HostError, messageOf } from '../host-error';
import { LIMITS } from '../limits';
import type { ElicitParams, QuestionAsker } from '../prompter/question-gate';
import { abortableSleep } from './abortable-sleep';
import { askTogether } from './ask-together';
import { RESULT_SCHEMAS } from './result-schemas';
import { digestState } from './state-digest';
import { vouchedAs } from '../../../shared/vouched-as';
import type { Receipt } from '../passkeys/receipt';

/**
 * The evidence a server that asks for verified approvals gets with the retry, under SEP-2672's draft key. The SEP's
 * own `method: "webauthn"` answers a challenge the server issued; Countersign's receipts answer a payload the host
 * issued for each accepted question, so they carry a method of their own (docs/passkeys.md says how to check one).
 */
export function verifiedApprovalMeta(receipts: Record<string, Receipt>): Record<string, unknown> {
  return { [VERIFIED_APPROVAL_META]: { method: 'countersign-receipt/1', receipts } };
}

export interface LoopOptions {
  /** Input rounds answered before the call ends with a round-limit error. */
  maxRounds: number;
  /** Pause before re-sending a round that carried only requestState (doubles, capped). */
  pacingDelayMs: number;
  pacingDelayMaxMs?: number;
  signal: AbortSignal;
  /** Per-request timeout for each leg (the human's time is not counted: it is between legs). */
  requestTimeoutMs?: number;
  /** How the round-limit error tells the user to allow more, in the words of the front end. Default: the CLI's flag. */
  roundLimitAdvice?: string;
  /** Extra HTTP headers for every leg (SEP-2243 `Mcp-Param-*`). */
  headers?: Record<string, string>;
}

export interface LoopResult {
  result: Record<string, unknown>;
  /** input_required answers received (0 when the call completed at once). */
  rounds: number;
}

// One wrapped schema per method for the life of the process: building it per
// call made the SDK set up its validation afresh each time (measured in
// bench/core.bench.ts).
const WRAPPED_SCHEMAS = new Map<CallMethod, ReturnType<typeof withInputRequired>>();
export function wrappedSchema(method: CallMethod) {
  let schema = WRAPPED_SCHEMAS.get(method);
  if (!schema) {
    schema = withInputRequired(RESULT_SCHEMAS[method]);
    WRAPPED_SCHEMAS.set(method, schema);
  }
  return schema;
}

/** Reserved retry fields a caller (an agent, say) must never smuggle into a first request. */
const RESERVED_PARAMS = ['inputResponses', 'requestState'];

/** Run a modern-era call to completion, asking the human through `gate`. */
export async function runInputRequiredLoop(
  client: Client,
  method: CallMethod,
  originalParams: Record<string, unknown>,
  call: CallContext,
  gate: QuestionAsker,
  options: LoopOptions,
): Promise<LoopResult> {
  const base = Object.fromEntries(Object.entries(originalParams).filter(([k]) => !RESERVED_PARAMS.includes(k)));
  const schema = wrappedSchema(method);
  let inputResponses: Record<string, unknown> | undefined;
  /** The passkey receipts of the round being answered, by key: they go with its retry to a server that asks. */
  let receipts: Record<string, Receipt> = {};
  let requestState: string | undefined;
  let rounds = 0;
  let pacing = options.pacingDelayMs;

  for (;;) {
    if (options.signal.aborted) throw new HostError('cancelled', 'the call was cancelled');
    const params: Record<string, unknown> = { ...base };
    if (inputResponses) params.inputResponses = inputResponses;
    if (requestState !== undefined) params.requestState = requestState;
    if (inputResponses && call.toolHints?.verifiedApproval && Object.keys(receipts).length > 0)
      params._meta = { ...(base._meta as Record<string, unknown> | undefined), ...verifiedApprovalMeta(receipts) };

    let response: unknown;
    try {
      // The SDK types request() per known method; this loop forwards any MRTR method, and `schema` checks the result.
      response = await client.request(vouchedAs({ method, params }), schema, {
        allowInputRequired: true,
        signal: options.signal,
        ...(options.requestTimeoutMs ? { timeout: options.requestTimeoutMs } : {}),
        ...(options.headers && Object.keys(options.headers).length > 0 ? { headers: options.headers } : {}),
      });
    } catch (error) {
      throw translateSdkError(error, options.signal);
    }

    if (!isInputRequiredResult(response)) {
      const resultType = (response as { resultType?: unknown }).resultType;
      if (resultType !== undefined && resultType !== 'complete') {
        throw new HostError(
          'unknown-result-type',
          `server "${call.server}" answered ${method} with unknown resultType ${JSON.stringify(resultType)}`,
        );
      }
      return { result: response as Record<string, unknown>, rounds };
    }

    rounds += 1;
    if (rounds > options.maxRounds) {
      throw new HostError(
        'round-limit',
        `server "${call.server}" still asked for input after ${options.maxRounds} rounds of ${method} ` +
          `"${call.name}"; the call was stopped (${options.roundLimitAdvice ?? 'raise --max-rounds to allow more'})`,
        {
          maxRounds: options.maxRounds,
        },
      );
    }

    const ir = response;
    const raw: unknown = ir.inputRequests;
    // `inputRequests: 42` (or null, an array, a string) is not an empty round to pace: it is an invalid result.
    if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
      throw new HostError(
        'protocol',
        `server "${call.server}" answered ${method} "${call.name}" with an invalid input_required result: ` +
          'inputRequests must be an object of requests by key, ' +
          `not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`,
      );
    }
    const requests = ir.inputRequests ?? {};
    requestState = ir.requestState;
    const keys = Object.keys(requests);
    const stateDigest = requestState !== undefined ? digestState(requestState) : undefined;

    if (keys.length === 0) {
      // The server is pacing itself: nothing to ask, just come back later.
      if (requestState === undefined) {
        throw new HostError(
          'protocol',
          `server "${call.server}" answered input_required with neither inputRequests nor requestState`,
        );
      }
      inputResponses = undefined;
      await abortableSleep(pacing, options.signal);
      pacing = Math.min(pacing * 2, options.pacingDelayMaxMs ?? 2000);
      continue;
    }
    pacing = options.pacingDelayMs;
    await gate.checkCount(call, call.server, keys.length, LIMITS.questionsPerRound, 'questions in one round');

    // Refuse the whole round before asking anything if one request is of a
    // kind the host did not declare: half-answered rounds help no one.
    for (const key of keys) {
      const req = requests[key] as { method?: unknown };
      if (typeof req?.method !== 'string' || !DECLARED_INPUT_METHODS.has(req.method)) {
        const error = new HostError(
          'undeclared-request',
          `server "${call.server}" asked for ${JSON.stringify(req?.method)} (key "${key}"), ` +
            'which this host did not declare; only elicitation is supported',
          {
            key,
            requested: req?.method,
          },
        );
        await gate.fault(call, error);
        throw error;
      }
    }

    const together = gate.asksRoundsTogether && keys.length > 1;
    const roundId = together ? randomUUID() : undefined;
    const round: Record<string, Receipt> = {};
    receipts = round;
    const ask = (key: string, i: number, signal: AbortSignal) =>
      gate
        .ask(
          (requests[key] as { params?: ElicitParams }).params ?? {},
          {
            call,
            server: call.server,
            era: 'modern',
            round: rounds,
            key,
            roundPosition: { index: i + 1, count: keys.length, keys, ...(roundId ? { roundId } : {}) },
            ...(rounds === options.maxRounds ? { lastRound: true } : {}),
            ...(stateDigest ? { requestState: stateDigest } : {}),
          },
          signal,
        )
        .then((given) => {
          if (given.receipt) round[key] = given.receipt;
          return given;
        });
    const answers: Record<string, unknown> = {};
    if (together) {
      // The whole round is put at once, so the human can go back within it;
      // the answers still go to the server together, in one retry.
      const given = await askTogether(keys, ask, options.signal);
      for (const [i, key] of keys.entries()) answers[key] = given[i];
    } else {
      for (const [i, key] of keys.entries()) answers[key] = (await ask(key, i, options.signal)).answer;
    }
    inputResponses = answers;
  }
}

/** Map SDK failures onto host errors with one clear sentence. */
export function translateSdkError(error: unknown, signal: { readonly aborted: boolean }): unknown {
  if (error instanceof HostError) return error;
  if (signal.aborted) return new HostError('cancelled', 'the call was cancelled');
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.UnsupportedResultType)
      return new HostError('unknown-result-type', `server sent a result of unknown type: ${error.message}`);
    if (
      error.code === SdkErrorCode.ConnectionClosed ||
      error.code === SdkErrorCode.NotConnected ||
      error.code === SdkErrorCode.SendFailed
    ) {
      return new HostError('connection', `the server connection failed: ${error.message}`);
    }
    if (error.code === SdkErrorCode.RequestTimeout) {
      // The SDK names the timeout it waited (its error data); the sentence names it too.
      const ms = (error.data as { timeout?: unknown } | undefined)?.timeout;
      return new HostError(
        'connection',
        typeof ms === 'number'
          ? `the server did not answer in time (${ms} ms)`
          : `the server did not answer in time: ${error.message}`,
      );
    }
    return new HostError('protocol', messageOf(error));
  }
  return error;
}
