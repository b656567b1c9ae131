import { describe, expect, it } from 'vitest';
import { parseRequest } from './ws-bridge';

describe('parseRequest', () => {
  it('reads {id, method, params}', () => {
    expect(parseRequest('{"id":1,"method":"listServers","params":{}}')).toEqual({
      id: 1,
      method: 'listServers',
      params: {},
    });
    expect(parseRequest('{"id":"a-1","method":"getSettings"}')).toEqual({
      id: 'a-1',
      method: 'getSettings',
      params: undefined,
    });
  });
  it('answers unreadable frames with an error that carries the id when there is one', () => {
    expect(parseRequest('{')).toEqual({ id: null, error: { message: 'malformed frame: not JSON' } });
    expect(parseRequest('null')).toMatchObject({ id: null });
    expect(parseRequest('"text"')).toMatchObject({ id: null });
    expect(parseRequest('{"id":1.5,"method":"x"}')).toMatchObject({ id: null });
    expect(parseRequest('{"id":"","method":"x"}')).toMatchObject({ id: null });
    expect(parseRequest(JSON.stringify({ id: 'x'.repeat(101), method: 'x' }))).toMatchObject({ id: null });
    expect(parseRequest('{"id":{"a":1},"method":"x"}')).toMatchObject({ id: null });
    expect(parseRequest('{"id":7}')).toEqual({
      id: 7,
      error: { message: 'malformed frame: "method" must be a string' },
    });
  });
});
