// Every transport of the host API exposes exactly the contract's list, no
// more and no less: the preload bridge (renderer side of IPC), the web client
// (renderer side of the WebSocket), main's IPC handler and the web shell's
// bridge (host side of each), and the in-memory host the renderer tests use.
// The host sides are driven with every method name and must hand each one
// to the service; a name outside the contract must not reach it.
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { hostMethods } from '../../shared/host-api/contract';
import { HOST_CLIENT_KEYS } from '../../shared/host-api/host-client';
import { HOST_EVENT_NAMES, HOST_METHOD_NAMES } from '../../shared/host-api/names';
import { createInvokeHandler, forwardHostEvents } from '../../electron/main/ipc';
import { createHostBridge } from '../../electron/preload/bridge';
import { WsBridge } from '../../electron/web/ws-bridge';
import { HostService } from '../../electron/core/service/host-service';
import { createInMemoryHost } from '../../renderer/src/api/in-memory-host';
import { createWsHostApi } from '../../renderer/src/api/ws-host-api';

const contract = [...HOST_METHOD_NAMES].sort();

/** A service that records what reaches it. */
function recordingService() {
  const invoked: unknown[] = [];
  const subscribed: string[] = [];
  return {
    invoked,
    subscribed,
    service: {
      invoke: async (method: unknown) => {
        invoked.push(method);
        return method === 'listQuestions' || method === 'listSignIns' ? [] : {};
      },
      on: (event: string) => {
        subscribed.push(event);
        return () => undefined;
      },
    },
  };
}

describe('host API parity', () => {
  it('the contract lists each method once, with a schema for each', () => {
    expect(new Set(HOST_METHOD_NAMES).size).toBe(HOST_METHOD_NAMES.length);
    expect(Object.keys(hostMethods).sort()).toEqual(contract);
    expect([...HOST_CLIENT_KEYS].sort()).toEqual([...contract, 'on'].sort());
  });

  it('the preload bridge exposes exactly the contract methods plus on', () => {
    const api = createHostBridge({ invoke: async () => ({ ok: true, value: null }), on: () => undefined });
    expect(Object.keys(api).sort()).toEqual([...contract, 'on'].sort());
  });

  it('the web client exposes exactly the contract methods plus on and its connection controls', () => {
    const api = createWsHostApi('ws://127.0.0.1:1/api', 'not-a-valid-token');
    expect(Object.keys(api).sort()).toEqual([...contract, 'close', 'connection', 'on', 'onConnection'].sort());
    api.close();
  });

  it('the in-memory host the renderer tests use has the same shape', () => {
    expect(Object.keys(createInMemoryHost().api).sort()).toEqual([...contract, 'on'].sort());
  });

  it("main's IPC handler hands every contract method to the service, and forwards every event", async () => {
    const { service, invoked, subscribed } = recordingService();
    const handler = createInvokeHandler({
      service,
      gate: { consent: () => () => undefined },
      mainWebContentsId: () => 1,
      log: () => undefined,
    });
    const event = { sender: { id: 1 }, senderFrame: { url: 'app://countersign/index.html', parent: null } };
    for (const method of HOST_METHOD_NAMES) {
      const params = method === 'openQuestionUrl' ? { questionId: 'q' } : {};
      await handler(event, method, params);
    }
    // openQuestionUrl first looks the question up (listQuestions, listSignIns), then asks the service.
    expect([...new Set(invoked)].sort()).toEqual(contract);
    forwardHostEvents(service, () => undefined);
    expect([...subscribed].sort()).toEqual([...HOST_EVENT_NAMES].sort());
  });

  it('the service has one forwarder per contract method, made from the names, each handing its call to invoke', async () => {
    const proto = HostService.prototype as unknown as Record<string, unknown>;
    const forwarders = Object.getOwnPropertyNames(HostService.prototype).filter((k) =>
      (HOST_METHOD_NAMES as readonly string[]).includes(k),
    );
    expect(forwarders.sort()).toEqual(contract);
    // Like a class method: on the prototype, not enumerable (a spread of the service copies no forwarders).
    expect(Object.keys(HostService.prototype)).toEqual([]);
    const invoked: unknown[][] = [];
    const fake = Object.assign(Object.create(HostService.prototype) as object, {
      invoke: async (...args: unknown[]) => void invoked.push(args),
    });
    for (const method of HOST_METHOD_NAMES)
      await (proto[method] as (p: unknown) => Promise<unknown>).call(fake, { method });
    expect(invoked).toEqual(HOST_METHOD_NAMES.map((method) => [method, { method }]));
  });

  it("the web shell's bridge hands every contract method to the service, and broadcasts every event", async () => {
    const { service, invoked, subscribed } = recordingService();
    const bridge = new WsBridge(service, { log: () => undefined });
    const sent: string[] = [];
    const socket = Object.assign(new EventEmitter(), {
      readyState: 1,
      OPEN: 1,
      bufferedAmount: 0,
      send: (text: string) => void sent.push(text),
      ping: () => undefined,
      terminate: () => undefined,
      close: () => undefined,
    });
    bridge.add(socket as unknown as WebSocket);
    HOST_METHOD_NAMES.forEach((method, id) =>
      socket.emit('message', Buffer.from(JSON.stringify({ id, method })), false),
    );
    await expect.poll(() => sent.length).toBe(HOST_METHOD_NAMES.length);
    expect([...invoked].sort()).toEqual(contract);
    expect([...subscribed].sort()).toEqual([...HOST_EVENT_NAMES].sort());
    bridge.close();
  });
});
