// Reading a tool's MCP App: the ui:// resource its definition names, fetched
// through the host's own resources/read (so the read is a recorded call like
// any other), and checked before anything is served from it.
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { HostError } from '../host-error';
import { declaredCsp, type DeclaredCsp } from './app-csp';

/** An app document is one HTML file; anything bigger is refused rather than served. */
export const MAX_APP_HTML_BYTES = 4 * 1024 * 1024;

/** The permissions an app may declare (ext-apps McpUiResourcePermissions); no other key is ever granted. */
export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type AppPermission = (typeof APP_PERMISSIONS)[number];

/** What the host takes from the resource. */
export interface AppResource {
  html: string;
  csp: DeclaredCsp;
  permissions: AppPermission[];
  prefersBorder: boolean;
}

function objectOr(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The app in a resources/read result, or a HostError saying why there is none. */
export function appResourceOf(result: Record<string, unknown>, uri: string): AppResource {
  const contents = Array.isArray(result.contents) ? result.contents.map(objectOr) : [];
  const content = contents.find((c) => c.uri === uri && c.mimeType === RESOURCE_MIME_TYPE);
  if (!content) throw new HostError('protocol', `the server sent no ${RESOURCE_MIME_TYPE} content for its app`);
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') html = Buffer.from(content.blob, 'base64').toString('utf8');
  else throw new HostError('protocol', 'the app resource has neither text nor blob');
  if (Buffer.byteLength(html) > MAX_APP_HTML_BYTES)
    throw new HostError('protocol', `the app is larger than ${MAX_APP_HTML_BYTES} bytes`);
  // The spec puts csp/permissions on the content's _meta.ui.
  const ui = objectOr(objectOr(content._meta).ui);
  const declared = objectOr(ui.permissions);
  return {
    html,
    csp: declaredCsp(ui.csp),
    permissions: APP_PERMISSIONS.filter((p) => Object.prototype.hasOwnProperty.call(declared, p)),
    prefersBorder: ui.prefersBorder === true,
  };
}
