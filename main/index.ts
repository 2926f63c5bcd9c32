/**
 * Electron composition root (issue 9): the desktop shell around the same daemon
 * `agentteam serve` runs, built by the same factory. Wiring lives in `app/desktop-app.ts`.
 *
 * issue 14: started with `--agentteam-cli` (by the `agentteam` shim on an agent's PATH) the binary
 * is the agents' CLI for one command and exits: nothing of the app is booted (app/app-cli.ts).
 * issue 29: the shim passes `--agentteam-cli --` so Chromium never reads an agent's argument as
 * a switch; `appCliArgs` strips that `--`.
 */
import { app } from 'electron';
import { fileURLToPath } from 'node:url';
import { createDaemon } from './daemon/index.js';
import { appAgentCli, appCliArgs, runAppCli } from './app/app-cli.js';
import { bootDesktopApp } from './app/desktop-app.js';

const cliArgs = appCliArgs(process.argv);
if (cliArgs !== null) {
  // No dock icon for a command (macOS); the exit code is the command's.
  app.dock?.hide();
  void runAppCli(
    cliArgs,
    { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
    process.env,
  ).then(
    (code) => app.exit(code),
    (err: unknown) => {
      process.stderr.write(`agentteam: ${err instanceof Error ? err.message : String(err)}\n`);
      app.exit(1);
    },
  );
} else
  bootDesktopApp({
    createDaemon,
    // This bundle is out/main/index.js; the preload and the renderer are its siblings in out/.
    outDir: fileURLToPath(new URL('..', import.meta.url)),
    env: process.env,
    agentCli: appAgentCli({
      execPath: process.execPath,
      isPackaged: app.isPackaged,
      appPath: app.getAppPath(),
      platform: process.platform,
      appImage: process.env.APPIMAGE,
    }),
  });
