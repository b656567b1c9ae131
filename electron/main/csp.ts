// The renderer's Content-Security-Policy as Electron sends it, a header on
// every app:// response: the one policy (shared/csp.ts) with connect-src
// 'none', since the renderer talks to the host over IPC only and every
// network request belongs to the main process, and frame-src the desktop's
// MCP App origin only (app-frames.ts).
import { contentSecurityPolicy, CSP_DIRECTIVES, DESKTOP_APP_FRAMES } from '../../shared/csp';

export { CSP_DIRECTIVES };

/** The policy as one header value. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy({ frameSrc: [DESKTOP_APP_FRAMES] });
