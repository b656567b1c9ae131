// The desktop's MCP App origin: documents served once from app://mcp-apps
// with their own policy, and nothing else answered there.
import { describe, expect, it } from 'vitest';
import { appContentSecurityPolicy, declaredCsp } from '../core/apps/app-csp';
import { AppDocuments } from '../core/apps/app-documents';
import { DESKTOP_APP_ORIGIN, frameDepth, isAppDocumentUrl, serveAppDocument } from './app-frames';

function publish(documents: AppDocuments) {
  const policy = appContentSecurityPolicy(declaredCsp({}), DESKTOP_APP_ORIGIN.frameAncestor);
  return documents.publish({ html: '<p>app</p>', contentSecurityPolicy: policy });
}

describe('the desktop app origin', () => {
  it('is a second host of the app scheme, framable only by the renderer', () => {
    expect(DESKTOP_APP_ORIGIN).toEqual({ documentBase: 'app://mcp-apps/app/', frameAncestor: 'app://countersign' });
    expect(isAppDocumentUrl('app://mcp-apps/app/x')).toBe(true);
    for (const url of ['app://countersign/app/x', 'app://mcp-apps.evil/app/x', 'http://mcp-apps/app/x', 'nonsense'])
      expect(isAppDocumentUrl(url), url).toBe(false);
  });

  it('serves a published document once, with its policy, then 404', async () => {
    const documents = new AppDocuments();
    const id = publish(documents);
    const res = serveAppDocument({ url: `${DESKTOP_APP_ORIGIN.documentBase}${id}`, method: 'GET' }, documents);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<p>app</p>');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors app://countersign');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const again = serveAppDocument({ url: `${DESKTOP_APP_ORIGIN.documentBase}${id}`, method: 'GET' }, documents);
    expect(again.status).toBe(404);
  });

  it('answers nothing else: other paths, queries, methods and hosts get no document', () => {
    const documents = new AppDocuments();
    const id = publish(documents);
    const status = (url: string, method = 'GET') => serveAppDocument({ url, method }, documents).status;
    expect(status(`app://mcp-apps/app/${id}`, 'POST')).toBe(405);
    expect(status(`app://mcp-apps/app/${id}?x=1`)).toBe(404);
    expect(status(`app://mcp-apps/${id}`)).toBe(404);
    expect(status(`app://mcp-apps/app/${id}/..`)).toBe(404);
    expect(status(`app://countersign/app/${id}`)).toBe(404);
    expect(status('app://mcp-apps/index.html')).toBe(404);
    // None of those took it: it is still there for its frame.
    expect(status(`app://mcp-apps/app/${id}`)).toBe(200);
  });

  it('counts a frame by its place: the page 0, an app 1, inside an app 2', () => {
    const page = { url: 'app://countersign/index.html', parent: null };
    const app = { url: 'app://mcp-apps/app/x', parent: page };
    expect(frameDepth(page)).toBe(0);
    expect(frameDepth(app)).toBe(1);
    expect(frameDepth({ url: 'https://a.example/', parent: app })).toBe(2);
    expect(frameDepth(null)).toBeUndefined();
    expect(frameDepth(undefined)).toBeUndefined();
  });
});
