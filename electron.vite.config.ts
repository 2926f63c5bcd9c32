import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { withMetaCsp } from './shared/csp.js';

/**
 * Three builds: main (the Electron composition root and the headless `agentteam` CLI,
 * which share the daemon), preload (CommonJS: sandboxed preloads cannot load ESM) and
 * the renderer (React), served by Electron's `app://` protocol or by `agentteam serve`.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundle the main process's dependencies: the packaged app needs no node_modules at all
      // (electron-builder 26 drops nested dependency versions from app.asar, e.g. cross-spawn's
      // which@2), and the CLI runs from out/main alone. `electron` and Node built-ins stay external.
      // So every package is a devDependency: nothing is installed into the app by electron-builder.
      externalizeDeps: false,
      rollupOptions: {
        // issue 30: the demo agents' worker thread is an entry of its own (runtime/demo/demo-thread.ts finds it).
        input: {
          index: resolve('main/index.ts'),
          cli: resolve('main/serve/cli.ts'),
          'demo-worker': resolve('main/daemon/runtime/demo/demo-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require() only `electron` (and a few built-ins): zod and the
      // shared contract must be bundled in, not left as `require('zod')`.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    // issue 41: index.html's CSP <meta> is written from the one policy in shared/csp.ts.
    plugins: [react(), { name: 'agentteam-csp', transformIndexHtml: (html: string) => withMetaCsp(html) }],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
