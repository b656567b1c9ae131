// The renderer's Content-Security-Policy, sent as a header on every app://
// response. Everything starts from 'none' and gets back only what a built
// Vite + React page uses: its own scripts, styles, images and fonts.
// - No 'unsafe-eval': Ajv's compiled validators are replaced by an
//   interpreter in the renderer (renderer/src/forms/validator.ts).
// - No 'unsafe-inline' for styles: React's `style` props are set through the
//   CSSOM, which CSP does not govern; only <style> tags and style attributes
//   parsed from HTML would need it, and the built renderer has neither.
// - connect-src 'none': the renderer talks to the host over IPC only; every
//   network request belongs to the main process.

/** The directives, one place to read and test. */
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

/** The policy as one header value. */
export const CONTENT_SECURITY_POLICY = Object.entries(CSP_DIRECTIVES)
  .map(([name, sources]) => `${name} ${sources.join(' ')}`)
  .join('; ');
