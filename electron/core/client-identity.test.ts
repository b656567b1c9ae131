import { describe, expect, it } from 'vitest';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { APP_HOST_CAPABILITIES, CLIENT_CAPABILITIES, TASKS_EXTENSION, UI_EXTENSION } from './client-identity';

describe('declared capabilities', () => {
  it('declares MCP Apps only for a front end that renders them', () => {
    expect(CLIENT_CAPABILITIES.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(APP_HOST_CAPABILITIES.extensions).toEqual({
      [TASKS_EXTENSION]: {},
      [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE], elicitation: {} },
    });
    const { extensions: _a, ...plain } = CLIENT_CAPABILITIES;
    const { extensions: _b, ...withApps } = APP_HOST_CAPABILITIES;
    expect(withApps).toEqual(plain);
  });
});
