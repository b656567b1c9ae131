// MCP Apps in the desktop window. An app's document comes from a second host
// of the app scheme, app://mcp-apps, answered by the same protocol handler as
// the renderer: no network, no port, nothing another local process can ask
// for. Each published document is served once (core/apps/app-documents.ts)
// with the policy built from its resource's own declarations, framable only
// by the renderer's origin. The renderer frames it sandboxed ("allow-scripts":
// an opaque origin); the second host keeps it cross-origin even without that.
//
// The window's hardening (hardening.ts) refuses every navigation and network
// request; the rules below are the only ones it lets an app's frame make:
// - the app's own frame (a child of the renderer's page) may load an app
//   document and nothing else: it cannot navigate itself to a web page;
// - frames inside an app (its declared frameDomains) may load http(s) pages;
// - network requests from an app's frames pass to Chromium, where the app's
//   own policy decides (connectDomains, resourceDomains); the renderer's page
//   itself still reaches nothing.
// Electron-free: app-main.ts wires these into protocol.handle and hardening.
import { DESKTOP_APP_FRAMES } from '../../shared/csp';
import type { AppOrigin } from '../core/apps/app-sessions';
import { APP_DOCUMENT_PATH, appDocumentHeaders, documentIdOf, type AppDocuments } from '../core/apps/app-documents';
import { APP_ORIGIN } from './app-protocol';

/** Where the desktop publishes app documents, and the one page that may frame them. */
export const DESKTOP_APP_ORIGIN: AppOrigin = {
  documentBase: `${DESKTOP_APP_FRAMES}${APP_DOCUMENT_PATH}`,
  frameAncestor: APP_ORIGIN,
};

/** The URL when it is on the desktop's app origin (app://mcp-apps/…); WHATWG gives a custom scheme no origin. */
function onAppOrigin(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}` === DESKTOP_APP_FRAMES ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** True for a URL on the desktop's app origin (app://mcp-apps/…). */
export function isAppDocumentUrl(url: string): boolean {
  return onAppOrigin(url) !== undefined;
}

/** The protocol.handle answer for app://mcp-apps: a published document once, else 404. */
export function serveAppDocument(request: { url: string; method: string }, documents: AppDocuments): Response {
  const plain = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
  if (request.method !== 'GET') return new Response('method not allowed\n', { status: 405, headers: plain });
  const url = onAppOrigin(request.url);
  const id = url && url.search === '' ? documentIdOf(url.pathname) : undefined;
  const doc = id ? documents.take(id) : undefined;
  if (!doc) return new Response('no such app document\n', { status: 404, headers: plain });
  return new Response(doc.html, { status: 200, headers: appDocumentHeaders(doc) });
}

/** A frame as Electron reports it (WebFrameMain): only its place in the tree and what it shows are read. */
export interface FramePlace {
  url: string;
  parent: FramePlace | null;
}

/** 0 for the renderer's page, 1 for an app's own frame, 2 and more inside an app; undefined when unknown. */
export function frameDepth(frame: FramePlace | null | undefined): number | undefined {
  if (!frame) return undefined;
  let depth = 0;
  for (let f = frame.parent; f; f = f.parent) depth += 1;
  return depth;
}

/**
 * Whether `frame` is, or sits inside, a child of the page that shows an app document. A frame the page made for
 * itself (about:blank, srcdoc: the page's own origin) is no app, and gets nothing from these rules.
 */
function insideApp(frame: FramePlace): boolean {
  let child = frame;
  while (child.parent?.parent) child = child.parent;
  return child.parent !== null && isAppDocumentUrl(child.url);
}

function isWebPage(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Whether a frame may go to `url` (will-frame-navigate, will-redirect). The page itself never navigates; an app's
 * frame loads its document only (the handler never redirects, so a redirect there is refused too); a frame inside
 * an app may load web pages, as far as the app's declared frame-src lets it.
 */
export function isAllowedFrameNavigation(details: {
  url: string;
  frame?: FramePlace | null;
  redirect?: boolean;
}): boolean {
  const depth = frameDepth(details.frame);
  if (depth === undefined || depth === 0) return false;
  if (depth === 1) return !details.redirect && isAppDocumentUrl(details.url);
  return insideApp(details.frame!) && isWebPage(details.url);
}

/**
 * Whether a network request may go out (the session's onBeforeRequest): only one an app's frames make, and never
 * a main-frame load. Which origins it may reach is the app document's own policy, enforced by Chromium; its
 * navigations were vetted by isAllowedFrameNavigation before they got here.
 */
export function isAllowedAppRequest(details: { frame?: FramePlace | null; resourceType?: string }): boolean {
  const depth = frameDepth(details.frame);
  return depth !== undefined && depth >= 1 && details.resourceType !== 'mainFrame' && insideApp(details.frame!);
}
