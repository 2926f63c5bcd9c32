/**
 * Electron composition root (issue 9): the desktop shell around the same daemon
 * `agentteam serve` runs, built by the same factory. Wiring lives in `app/desktop-app.ts`.
 */
import { fileURLToPath } from 'node:url';
import { createDaemon } from './daemon/index.js';
import { bootDesktopApp } from './app/desktop-app.js';

bootDesktopApp({
  createDaemon,
  // This bundle is out/main/index.js; the preload and the renderer are its siblings in out/.
  outDir: fileURLToPath(new URL('..', import.meta.url)),
  env: process.env,
});
