// The one rule for a link that leaves Countersign for the system browser,
// applied by every opener: Electron's openExternal gate (electron/main) and
// the Node opener of the web shell and CLI (electron/web/system-opener.ts).
// https anywhere; http only to this computer (localhost, 127.0.0.0/8, [::1],
// spelled exactly so: "localhost." or "127.0.0.1.nip.io" are other names);
// nothing analyzeUrl blocks; at most MAX_EXTERNAL_URL_LENGTH characters. What
// reaches the OS is the WHATWG-serialised URL, so no raw spaces, quotes or
// control characters ever reach xdg-open / ShellExecute / open(1).
import { analyzeUrl } from './analyze-url';

/** Longest URL handed to the OS (Windows' ShellExecute limit is near this). */
export const MAX_EXTERNAL_URL_LENGTH = 32_000;

/** A verdict on one URL: what to open, or why not. */
export type ExternalUrlVerdict = { ok: true; href: string } | { ok: false; reason: string };

// Exactly analyzeUrl's loopback forms, re-derived so a change there cannot silently widen this.
function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Checks a URL against the scheme allowlist and analyzeUrl; returns the serialised URL to open. */
export function checkExternalUrl(url: unknown): ExternalUrlVerdict {
  if (typeof url !== 'string' || url.length === 0) return { ok: false, reason: 'no URL' };
  if (url.length > MAX_EXTERNAL_URL_LENGTH)
    return { ok: false, reason: `the URL is longer than ${MAX_EXTERNAL_URL_LENGTH} characters` };
  const analysis = analyzeUrl(url);
  if (analysis.blocked)
    return { ok: false, reason: analysis.warnings.map((w) => w.message).join(' ') || 'the URL is blocked' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the URL cannot be parsed' };
  }
  if (parsed.protocol === 'https:') return { ok: true, href: parsed.href };
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return { ok: true, href: parsed.href };
  return { ok: false, reason: `the scheme "${parsed.protocol}" is not allowed (https, or http to this computer only)` };
}
