import { describe, expect, it } from 'vitest';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { appResourceOf, MAX_APP_HTML_BYTES } from './app-resource';

const uri = 'ui://server/app.html';

describe('reading an app from resources/read', () => {
  it('takes the HTML, the declared CSP, only known permissions and prefersBorder', () => {
    const app = appResourceOf(
      {
        contents: [
          {
            uri,
            mimeType: RESOURCE_MIME_TYPE,
            text: '<p>hi</p>',
            _meta: {
              ui: {
                csp: { connectDomains: ['https://api.example.com'] },
                permissions: { camera: {}, usb: {}, clipboardWrite: {} },
                prefersBorder: true,
              },
            },
          },
        ],
      },
      uri,
    );
    expect(app.html).toBe('<p>hi</p>');
    expect(app.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(app.permissions).toEqual(['camera', 'clipboardWrite']);
    expect(app.prefersBorder).toBe(true);
  });

  it('decodes a blob', () => {
    const blob = Buffer.from('<p>blob</p>').toString('base64');
    expect(appResourceOf({ contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, blob }] }, uri).html).toBe('<p>blob</p>');
  });

  it('refuses content of another type or URI, and an oversized app', () => {
    expect(() => appResourceOf({ contents: [{ uri, mimeType: 'text/html', text: 'x' }] }, uri)).toThrow(
      /no text\/html;profile=mcp-app/,
    );
    expect(() =>
      appResourceOf({ contents: [{ uri: 'ui://other', mimeType: RESOURCE_MIME_TYPE, text: 'x' }] }, uri),
    ).toThrow();
    expect(() => appResourceOf({ contents: 'nope' }, uri)).toThrow();
    const big = 'x'.repeat(MAX_APP_HTML_BYTES + 1);
    expect(() => appResourceOf({ contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: big }] }, uri)).toThrow(
      /larger than/,
    );
  });
});
