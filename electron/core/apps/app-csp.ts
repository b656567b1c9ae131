// The Content-Security-Policy an MCP App document is served with. The app's
// resource may declare the origins it needs (`_meta.ui.csp`: connectDomains,
// resourceDomains, frameDomains, baseUriDomains); the policy grants those and
// nothing else. A declared entry is server text: anything that is not a plain
// http(s) origin (optionally with a leading `*.` label) is dropped, so no
// `;`, quote, keyword or scheme source can widen the policy. So is any origin
// on this machine or its local network (localhost, loopback, private and
// link-local addresses, single-label and .local names): that is where the
// other MCP servers and the host's own listeners are, and an app reaches
// servers only through the host's gate.

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

/** Names that stand for this machine or its local network, whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/i;

/** True for an IPv4 address outside the public internet: unspecified, loopback, private, shared, link-local. */
function isLocalIpv4(labels: number[]): boolean {
  const [a, b] = labels as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * True when the origin's host may be on this machine or its local network: a local name, a name of one label (an
 * intranet host), a private address, or a wildcard over numbers (`*.0.0.1` covers 127.0.0.1).
 */
function isLocalHost(origin: string): boolean {
  const host = origin.replace(/^[a-z]+:\/\//i, '').replace(/:\d+$/, '');
  const wildcard = host.startsWith('*.');
  const labels = (wildcard ? host.slice(2) : host).split('.');
  if (LOCAL_NAME.test(host) || (!wildcard && labels.length === 1)) return true;
  if (!/^\d+$/.test(labels[labels.length - 1]!)) return false;
  // A number in the last place: only a whole public IPv4 address is an origin on the internet.
  if (wildcard || labels.length !== 4 || !labels.every((l) => /^\d{1,3}$/.test(l) && Number(l) <= 255)) return true;
  return isLocalIpv4(labels.map(Number));
}

/** The declared lists, each cut to well-formed origins off this machine and its network (at most 32 per list). */
export function declaredCsp(raw: unknown): DeclaredCsp {
  const obj = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const list = (key: keyof DeclaredCsp) => {
    const value = obj[key];
    if (!Array.isArray(value)) return [];
    return value
      .filter((d): d is string => typeof d === 'string' && d.length <= 253 && ORIGIN.test(d) && !isLocalHost(d))
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
 * runs in an opaque-origin sandbox, so 'self' grants nothing: the policy's own
 * `sandbox allow-scripts` makes it one whatever the frame says, so two
 * servers' apps, served from one origin, never share it. `frameAncestor` is
 * the only page that may embed it.
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
    ['sandbox', ['allow-scripts']],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
