// MCP Apps in the desktop window. An app's document comes from a second host
// of the app scheme, app://mcp-apps, answered by the same protocol handler as
// the renderer: no network, no port, nothing another local process can ask
// for. Each published document is served once (core/apps/app-documents.ts)
// with the policy built from its resource's own declarations, framable only
// by the renderer's origin and sandboxed by that policy itself (an opaque
// origin, so two servers' apps never share one), besides the frame's own
// sandbox="allow-scripts".
//
// The window's hardening (hardening.ts) refuses every navigation and network
// request; the rules below are the only ones it lets an app's frames make,
// and the renderer's page can use none of them (a compromised page could
// otherwise steer a frame inside an app, which it may navigate, to any web
// address and so reach the network):
// - the app's own frame (a child of the page) loads an app document when the
//   page asks, and nothing else: the app cannot take it to a web page;
// - frames inside an app load http(s) pages when that app asks;
// - network requests from an app's frames pass to Chromium, where the policy
//   of the document making them decides; none the page starts.
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

/** A frame as Electron reports it (WebFrameMain): its place in the tree, what it shows, and its id. */
export interface FramePlace {
  url: string;
  parent: FramePlace | null;
  /** WebFrameMain's frameTreeNodeId: one frame may come wrapped in more than one object. */
  frameTreeNodeId?: number;
}

/** 0 for the renderer's page, 1 for an app's own frame, 2 and more inside an app; undefined when unknown. */
export function frameDepth(frame: FramePlace | null | undefined): number | undefined {
  if (!frame) return undefined;
  let depth = 0;
  for (let f = frame.parent; f; f = f.parent) depth += 1;
  return depth;
}

/**
 * The app `frame` belongs to: the child of the page it is or sits inside, when that shows an app document. A frame
 * the page made for itself (about:blank, srcdoc: the page's own origin) is no app.
 */
function appOf(frame: FramePlace | null | undefined): FramePlace | undefined {
  if (!frame?.parent) return undefined;
  let child = frame;
  while (child.parent?.parent) child = child.parent;
  return isAppDocumentUrl(child.url) ? child : undefined;
}

function sameFrame(a: FramePlace, b: FramePlace): boolean {
  return a === b || (a.frameTreeNodeId !== undefined && a.frameTreeNodeId === b.frameTreeNodeId);
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
 * Whether a frame may go to `url` (will-frame-navigate, will-redirect), given the frame that asked (`initiator`).
 * The page itself never navigates. An app's own frame loads an app document, and only the page may send it there
 * (the handler never redirects, so a redirect there is refused too). A frame inside an app loads web pages, and only
 * that app's frames may send it (the page may navigate any frame below it, and would otherwise reach the web so).
 */
export function isAllowedFrameNavigation(details: {
  url: string;
  frame?: FramePlace | null;
  initiator?: FramePlace | null;
  redirect?: boolean;
}): boolean {
  const depth = frameDepth(details.frame);
  if (depth === undefined || depth === 0) return false;
  if (depth === 1) return !details.redirect && frameDepth(details.initiator) === 0 && isAppDocumentUrl(details.url);
  const app = appOf(details.frame);
  const asker = appOf(details.initiator);
  return app !== undefined && asker !== undefined && sameFrame(app, asker) && isWebPage(details.url);
}

/**
 * Whether a network request may go out (the session's onBeforeRequest): one an app's frames make, for what the
 * document making it allows. Never one the page started (its origin is the page's, app://countersign: that covers a
 * navigation it starts in a frame below it), never a main-frame load, and never the app's own frame going to the web.
 */
export function isAllowedAppRequest(details: {
  frame?: FramePlace | null;
  resourceType?: string;
  initiatorOrigin?: string;
}): boolean {
  if (details.initiatorOrigin === APP_ORIGIN) return false;
  const depth = frameDepth(details.frame);
  if (depth === undefined || depth === 0 || details.resourceType === 'mainFrame') return false;
  if (depth === 1 && details.resourceType === 'subFrame') return false;
  return appOf(details.frame) !== undefined;
}
