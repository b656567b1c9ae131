// The Content-Security-Policy an MCP App document is served with. The app's
// resource may declare the origins it needs (`_meta.ui.csp`: connectDomains,
// resourceDomains, frameDomains, baseUriDomains); the policy grants those and
// nothing else. A declared entry is server text: anything that is not a plain
// http(s) origin (optionally with a leading `*.` label) is dropped, so no
// `;`, quote, keyword or scheme source can widen the policy.

/** The declared origins, as the ext-apps spec names them. */
export interface DeclaredCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** An origin a CSP source list can carry: scheme, host (maybe `*.`-prefixed), optional port, nothing else. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const MAX_DOMAINS = 32;

/** The declared lists, each cut to well-formed origins (at most 32 per list). */
export function declaredCsp(raw: unknown): DeclaredCsp {
  const obj = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const list = (key: keyof DeclaredCsp) => {
    const value = obj[key];
    if (!Array.isArray(value)) return [];
    return value
      .filter((d): d is string => typeof d === 'string' && d.length <= 253 && ORIGIN.test(d))
      .slice(0, MAX_DOMAINS);
  };
  return {
    connectDomains: list('connectDomains'),
    resourceDomains: list('resourceDomains'),
    frameDomains: list('frameDomains'),
    baseUriDomains: list('baseUriDomains'),
  };
}

/**
 * The policy header. Inline scripts and styles are allowed because an app is
 * one HTML document (the spec's resources are self-contained); the document
 * runs in an opaque-origin sandbox, so 'self' grants nothing. `frameAncestor`
 * is the only page that may embed it.
 */
export function appContentSecurityPolicy(csp: DeclaredCsp, frameAncestor: string): string {
  const res = csp.resourceDomains;
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'none'"]],
    ['script-src', ["'unsafe-inline'", ...res]],
    ['style-src', ["'unsafe-inline'", ...res]],
    ['img-src', ['data:', 'blob:', ...res]],
    ['font-src', ['data:', ...res]],
    ['media-src', ['data:', 'blob:', ...res]],
    ['connect-src', csp.connectDomains.length > 0 ? csp.connectDomains : ["'none'"]],
    ['frame-src', csp.frameDomains.length > 0 ? csp.frameDomains : ["'none'"]],
    ['base-uri', csp.baseUriDomains.length > 0 ? csp.baseUriDomains : ["'none'"]],
    ['object-src', ["'none'"]],
    ['worker-src', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', [frameAncestor]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
