// The renderer's Content-Security-Policy, defined once for its three
// deliveries: the app:// header in Electron (electron/main/csp.ts), the web
// shell's header (electron/web/static-files.ts) and the build-time <meta> tag
// (vite.config.ts). They differ only where the transport does: connect-src
// (Electron: 'none', the renderer talks over IPC; the web shell: its own
// WebSocket origin) and frame-ancestors, which a <meta> policy cannot carry.
// Everything starts from 'none' and gets back only what a built Vite + React
// page uses: its own scripts, styles, images and fonts.
// - No 'unsafe-eval': Ajv's compiled validators are replaced by an
//   interpreter in the renderer (renderer/src/forms/validator.ts).
// - No 'unsafe-inline' for styles: React's `style` props are set through the
//   CSSOM, which CSP does not govern; the built renderer has no <style> tags
//   or style attributes.

/** The directives (Electron's: connect-src 'none'). */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'none'"],
  'media-src': ["'none'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'worker-src': ["'none'"],
  'manifest-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/** The <meta> policy's frame-src: the web shell's app origin is a loopback port chosen at run time. */
export const LOOPBACK_FRAMES = 'http://127.0.0.1:*';

/** The desktop's MCP App origin (electron/main/app-frames.ts): a second host of the app scheme, no network. */
export const DESKTOP_APP_FRAMES = 'app://mcp-apps';

/**
 * The policy as one header value; `connectSrc` replaces connect-src, `frameSrc` frame-src (the web shell's app
 * origin, where MCP App documents come from), `meta` drops what a <meta> tag ignores.
 */
export function contentSecurityPolicy(
  options: { connectSrc?: readonly string[]; frameSrc?: readonly string[]; meta?: boolean } = {},
): string {
  const replaced: Record<string, readonly string[] | undefined> = {
    'connect-src': options.connectSrc,
    'frame-src': options.frameSrc,
  };
  return Object.entries(CSP_DIRECTIVES)
    .filter(([name]) => !(options.meta && name === 'frame-ancestors'))
    .map(([name, sources]) => `${name} ${(replaced[name] ?? sources).join(' ')}`)
    .join('; ');
}
