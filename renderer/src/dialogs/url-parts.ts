// Splits a link into the pieces the consent dialog styles differently: the
// scheme, any user info (suspicious), the host with its registrable domain
// marked, port, path, query and fragment. Pure; parses with the same WHATWG
// parser the system browser uses, and fetches nothing.
import type { UrlAnalysis } from '../../../shared/elicitation/types';

/** One styled piece of a URL. */
export interface UrlPart {
  kind: 'scheme' | 'userinfo' | 'subdomain' | 'domain' | 'port' | 'path' | 'query' | 'fragment' | 'raw';
  text: string;
}

/** A host split for emphasis: the part before the registrable domain, and the domain itself. */
export interface HostParts {
  sub: string;
  domain: string;
}

/** Splits `host` into subdomain and registrable domain (by suffix match, else by the domain's label count). */
export function splitHost(host: string, registrable: string): HostParts {
  if (!registrable || !host) return { sub: '', domain: host };
  if (host === registrable) return { sub: '', domain: host };
  if (host.endsWith(`.${registrable}`))
    return { sub: host.slice(0, host.length - registrable.length), domain: registrable };
  const labels = host.split('.');
  const count = registrable.split('.').length;
  if (labels.length <= count) return { sub: '', domain: host };
  return { sub: `${labels.slice(0, labels.length - count).join('.')}.`, domain: labels.slice(-count).join('.') };
}

/** The registrable domain in Unicode: the analysis's own, or derived from the Unicode host. */
export function unicodeDomain(analysis: UrlAnalysis): string {
  if (analysis.registrableDomainUnicode) return analysis.registrableDomainUnicode;
  return splitHost(analysis.hostUnicode, analysis.registrableDomain).domain;
}

/** The link as the browser will see it (ASCII host), in styled pieces; one raw piece if it does not parse. */
export function urlParts(analysis: UrlAnalysis): UrlPart[] {
  let url: URL;
  try {
    url = new URL(analysis.href);
  } catch {
    return [{ kind: 'raw', text: analysis.href }];
  }
  // Opaque links (mailto:, javascript:, data:) have no host: show them whole after the scheme.
  if (!url.host && !url.href.startsWith(`${url.protocol}//`)) {
    return [
      { kind: 'scheme', text: url.protocol },
      { kind: 'raw', text: url.href.slice(url.protocol.length) },
    ];
  }
  const parts: UrlPart[] = [{ kind: 'scheme', text: `${url.protocol}//` }];
  if (url.username || url.password) {
    parts.push({ kind: 'userinfo', text: `${url.username}${url.password ? `:${url.password}` : ''}@` });
  }
  const { sub, domain } = splitHost(url.hostname, analysis.registrableDomain);
  if (sub) parts.push({ kind: 'subdomain', text: sub });
  if (domain) parts.push({ kind: 'domain', text: domain });
  if (url.port) parts.push({ kind: 'port', text: `:${url.port}` });
  if (url.pathname) parts.push({ kind: 'path', text: url.pathname });
  if (url.search) parts.push({ kind: 'query', text: url.search });
  if (url.hash) parts.push({ kind: 'fragment', text: url.hash });
  return parts;
}

/** The text the copy button puts on the clipboard: the parsed link, or the raw text if it does not parse. */
export function copyText(analysis: UrlAnalysis): string {
  try {
    return new URL(analysis.href).href;
  } catch {
    return analysis.href;
  }
}
