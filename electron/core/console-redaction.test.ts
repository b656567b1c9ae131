import { describe, expect, it } from 'vitest';
import { redactLogText } from './console-redaction';

describe('redactLogText', () => {
  it("cuts an authorization server's raw body, as the SDK quotes it, to the end of the message", () => {
    const cause = 'HTTP 500: Invalid OAuth error response: SyntaxError: x. Raw body: echo rt-5a9c0f0e1d2b3a4c';
    const line = redactLogText(`[mcp-sdk] Could not refresh OAuth tokens. Cause: ${JSON.stringify(cause)}`);
    expect(line).toContain('[mcp-sdk] Could not refresh OAuth tokens. Cause: "HTTP 500');
    expect(line).toContain('Raw body: (withheld');
    expect(line).not.toContain('echo');
  });

  it('takes out token-like values in JSON, form, header and bare shape, and leaves addresses and words', () => {
    const line = redactLogText(
      '{"refresh_token":"short"} code=abc&state=1 Authorization: Bearer a.b.c ' +
        'eyJhbGciOiJFUzI1NiJ9x1 server "notes" at http://127.0.0.1:43211/mcp in /tmp/cs-data',
    );
    expect(line).toBe(
      '{"refresh_token":"[redacted]"} code=[redacted]&state=1 Authorization: Bearer [redacted] ' +
        '[redacted] server "notes" at http://127.0.0.1:43211/mcp in /tmp/cs-data',
    );
  });
});
