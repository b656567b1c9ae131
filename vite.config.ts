// Builds the renderer (renderer/) to dist/renderer.
// - base './': the same files load from file:// in Electron and from the
//   loopback web shell under any path.
// - No inline scripts and no remote assets, and a build-time CSP meta tag
//   (script-src 'self', no 'unsafe-eval'), so the pages run under a strict
//   policy. The dev server gets no meta tag: it injects styles inline for HMR.
// - Two pages: index.html (the app) and harness.html (an in-page fake host
//   for the browser tests; it never talks to a real host).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { contentSecurityPolicy, DESKTOP_APP_FRAMES, LOOPBACK_FRAMES } from './shared/csp';

const rendererRoot = fileURLToPath(new URL('./renderer/', import.meta.url));

/**
 * The renderer's Content-Security-Policy as a <meta> tag: the one policy (shared/csp.ts), with connect-src
 * 'self' so the web shell's WebSocket can reach its own origin (Electron's header narrows it to 'none'), and
 * frame-src the two places MCP App documents come from: any loopback port, since the web shell's app origin gets
 * its port at run time, and the desktop's app://mcp-apps. Each header narrows it to its own (both policies are
 * enforced together).
 */
export const RENDERER_CSP = contentSecurityPolicy({
  connectSrc: ["'self'"],
  frameSrc: [LOOPBACK_FRAMES, DESKTOP_APP_FRAMES],
  meta: true,
});

/** What goes into the renderer's mcp-apps chunk: the SDK packages, and the bridge modules that import them. */
const MCP_APPS_CHUNK = new RegExp(
  [
    String.raw`node_modules[\/](@modelcontextprotocol|@standard-schema)[\/]`,
    String.raw`renderer[\/]src[\/]views[\/]tools[\/]apps[\/](app-bridge-host|rate-window)\.`,
  ].join('|'),
);

function cspMetaTag(): Plugin {
  return {
    name: 'countersign-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: RENDERER_CSP },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react(), cspMetaTag()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer/', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    // The preload polyfill would be an inline script; Electron's Chromium and any browser we support have
    // modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // The app loads from disk (app:// or the loopback shell), never over a network: one ~800 kB vendor
    // chunk costs nothing a split would save, so the generic "chunk larger than 500 kB" advice is off.
    chunkSizeWarningLimit: 1200,
    manifest: true,
    sourcemap: false,
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./renderer/index.html', import.meta.url)),
        harness: fileURLToPath(new URL('./renderer/harness.html', import.meta.url)),
      },
      // Libraries in one cacheable chunk with an honest name; app code stays per page.
      output: {
        codeSplitting: {
          groups: [
            // MCP Apps' host side (the ext-apps bridge, loaded by AppPanel.tsx's dynamic import, and the SDK code
            // it carries) in a chunk of its own: in the vendor chunk it set off an eval probe under the renderer's
            // policy at start (test/packaging/csp-browser.test.ts); here, with zod-jitless.ts first, it does not.
            {
              name: 'mcp-apps',
              priority: 2,
              test: MCP_APPS_CHUNK,
            },
            { name: 'vendor', priority: 1, test: /node_modules/ },
            { name: 'app', test: /renderer[\\/]src[\\/](?!harness|main\.tsx|api[\\/]in-memory-host)/ },
          ],
        },
      },
    },
  },
});
