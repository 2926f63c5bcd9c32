/**
 * The desktop shell around the daemon (issue 9), wired by hand in one place (STYLE.md
 * habit 5): everything is constructed in `start()` in dependency order and disposed in
 * reverse in `stop()`. `bootDesktopApp` does the parts Electron needs before `ready`.
 */
import { app, crashReporter, dialog, session, type BrowserWindow } from 'electron';
import { EMPTY } from 'rxjs';
import { join } from 'node:path';
import { ApiError, apiCalls, type ApiCallName, type ApiHandlers } from '../../shared/api/contract.js';
import type { CreateDaemonOptions, Daemon } from '../daemon/index.js';
import type { AgentCliLauncher } from '../daemon/runtime/agent-cli-shim.js';
import { createAppLog, type AppLog } from './app-log.js';
import { APP_ENTRY_URL, handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { createAppWindow } from './create-app-window.js';
import { CrashLoopGuard } from './crash-loop-guard.js';
import { folderPickerHandlers } from './folder-picker.js';
import { openIpcGate, type IpcGate } from './ipc-gate.js';
import { startAlertNotifier } from './notifications.js';
import { openSettingsStore, settingsHandlers } from './settings-store.js';
import {
  appNavigationPolicy,
  denyAllPermissions,
  hardenWebContents,
  type NavigationPolicy,
} from './web-contents-guards.js';

/** electron-builder.yml `appId`. */
export const APP_USER_MODEL_ID = 'dev.agentteam.desktop';

export interface DesktopAppDeps {
  /** The same factory `agentteam serve` uses (main/daemon/index.ts). */
  readonly createDaemon: (options: CreateDaemonOptions) => Promise<Daemon>;
  /** The built `out/` folder: `preload/index.cjs` and `renderer/` live there. */
  readonly outDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds `stop()` waits for the daemon to drain before quitting anyway (default 15 s). */
  readonly stopTimeoutMs?: number;
  /** issue 14: this app binary as the agents' `agentteam` (app-cli.ts), for the shim on their PATH. */
  readonly agentCli?: AgentCliLauncher;
}

/** Every call answers `unavailable` with why: the window still opens and tells the person what to fix. */
export function unavailableHandlers(message: string): ApiHandlers {
  const handlers: Partial<Record<ApiCallName, () => Promise<never>>> = {};
  for (const name of Object.keys(apiCalls) as ApiCallName[]) {
    handlers[name] = async () => {
      throw new ApiError('unavailable', message);
    };
  }
  return handlers as unknown as ApiHandlers;
}

export class DesktopApp {
  private log: AppLog | null = null;
  private daemon: Daemon | null = null;
  private gate: IpcGate | null = null;
  private notifier: { dispose(): void } | null = null;
  private unhandleProtocol: (() => void) | null = null;
  private window: BrowserWindow | null = null;
  private readonly crashGuard = new CrashLoopGuard();
  private stopping: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private readonly startOutcome = Promise.withResolvers<void>();

  constructor(
    private readonly deps: DesktopAppDeps,
    private readonly policy: NavigationPolicy,
    private readonly entryUrl: string,
  ) {
    // The failure is handled where start() is called; this promise only reports it to waiters.
    this.startOutcome.promise.catch(() => undefined);
  }

  /** Whether `stop()` has finished (quit may proceed). */
  stopped = false;

  /** The agent daemon's data: `<userData>/data`, or `AGENTTEAM_DATA_DIR` (the `--data-dir` of serve). */
  get dataDir(): string {
    return this.deps.env.AGENTTEAM_DATA_DIR ?? join(app.getPath('userData'), 'data');
  }

  /** Settles when `start()` has finished (tests and the second-instance path wait on it, never on time). */
  started(): Promise<void> {
    return this.startOutcome.promise;
  }

  start(): Promise<void> {
    if (this.starting === null) {
      this.starting = this.startOnce();
      this.starting.then(this.startOutcome.resolve, this.startOutcome.reject);
    }
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    const userData = app.getPath('userData');
    const log = createAppLog({
      logsDir: join(userData, 'logs'),
      level: this.deps.env.AGENTTEAM_LOG_LEVEL === 'debug' ? 'debug' : 'info',
      console: !app.isPackaged && this.deps.env.AGENTTEAM_LOG_CONSOLE !== '0',
    });
    this.log = log;
    log.info('app starting', { version: app.getVersion(), packaged: app.isPackaged, dataDir: this.dataDir });

    // Opened before the gate: electron-store registers its own ipcMain channel, which the gate then closes.
    const settings = openSettingsStore({ dataDir: this.dataDir, log });
    this.unhandleProtocol = handleAppProtocol(join(this.deps.outDir, 'renderer'));
    denyAllPermissions(session.defaultSession);

    let handlers: ApiHandlers;
    try {
      // The daemon keeps the UI-only preferences in the store; channel settings live in agentteam.json (issue 17).
      const daemon = await this.deps.createDaemon({
        dataDir: this.dataDir,
        log,
        settings: settings.port(),
        // issue 29: no agent workspace may overlap the app's own folder either.
        privateDirs: [app.getPath('userData')],
        ...(this.deps.agentCli === undefined ? {} : { agentCli: this.deps.agentCli }),
      });
      this.daemon = daemon;
      handlers = {
        ...daemon.api,
        ...settingsHandlers(settings, daemon.api),
        // issue 14: the workspace folder picker, opened by the main process behind the gate.
        ...folderPickerHandlers(
          {
            showOpenDialog: (parent, o) =>
              parent === null ? dialog.showOpenDialog(o) : dialog.showOpenDialog(parent, o),
          },
          () => (this.window !== null && !this.window.isDestroyed() ? this.window : null),
        ),
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.error('the daemon could not start', { error: reason });
      handlers = {
        ...unavailableHandlers(
          `The agent daemon could not start: ${reason}. Fix it (config: ${join(this.dataDir, 'agentteam.json')}, log: ${log.path}) and restart AgentTeam.`,
        ),
        ...settingsHandlers(settings, null),
      };
    }

    const events$ = this.daemon?.events$ ?? EMPTY;
    this.gate = openIpcGate({
      handlers,
      events$,
      isAllowedOrigin: (url) => this.policy.isAllowedUrl(url),
      log,
      checkResponses: !app.isPackaged,
      ...(this.daemon?.limits === undefined ? {} : { maxMessageBytes: this.daemon.limits.maxMessageBytes }),
    });
    this.openWindow();
    this.notifier = startAlertNotifier({
      events$,
      language: () => settings.get().language,
      focusWake: (token) => this.focusWake(token),
    });
    log.info('app started');
  }

  /** The main window, opened when there is none (macOS `activate`, a notification click). */
  openWindow(): BrowserWindow {
    if (this.window !== null && !this.window.isDestroyed()) return this.window;
    const window = createAppWindow({
      preload: join(this.deps.outDir, 'preload', 'index.cjs'),
      url: this.entryUrl,
      policy: this.policy,
    });
    this.window = window;
    this.gate?.addWindow(window);
    window.on('closed', () => {
      if (this.window === window) this.window = null;
    });
    window.webContents.on('render-process-gone', (_event, details) => {
      if (details.reason === 'clean-exit') return;
      this.log?.error('the window renderer is gone', { reason: details.reason, exitCode: details.exitCode });
      if (this.crashGuard.recordCrash(Date.now())) {
        void window.loadURL(this.entryUrl);
        return;
      }
      this.log?.error('the window renderer keeps crashing; not reloading it again');
      void dialog
        .showMessageBox(window, {
          type: 'error',
          message: 'The AgentTeam window keeps crashing.',
          detail: 'Your agents keep running. Reload to try again, or quit and check the log.',
          buttons: ['Reload', 'Quit'],
          defaultId: 0,
          cancelId: 1,
        })
        .then(({ response }) => {
          if (response === 0) {
            this.crashGuard.reset();
            void window.loadURL(this.entryUrl);
          } else app.quit();
        });
    });
    return window;
  }

  /** A second launch or a notification click: bring the window forward (and open that wake). */
  focusWake(wakeToken: string | null): void {
    const window = this.openWindow();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    if (wakeToken === null) return;
    const push = () => this.gate?.push({ name: 'wake.focusRequested', payload: { wakeToken } });
    if (window.webContents.isLoading()) window.webContents.once('did-finish-load', push);
    else push();
  }

  /** Quit: stop pushing and answering, drain the daemon (it closes its store), in reverse order. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.notifier?.dispose();
      this.gate?.close();
      if (this.daemon !== null) {
        const timeoutMs = this.deps.stopTimeoutMs ?? 15_000;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
        });
        try {
          const outcome = await Promise.race([this.daemon.stop().then(() => 'stopped' as const), timedOut]);
          if (outcome === 'timeout') this.log?.warn('the daemon did not stop in time; quitting anyway', { timeoutMs });
        } catch (error) {
          this.log?.error('the daemon failed to stop cleanly', { error: String(error) });
        } finally {
          clearTimeout(timer);
        }
      }
      this.unhandleProtocol?.();
      this.log?.info('app stopped');
      this.stopped = true;
    })();
    return this.stopping;
  }
}

/**
 * Boots the app: the parts that must happen before `ready` (privileged scheme, sandbox,
 * single-instance lock, guards for every web contents), then `DesktopApp.start()`.
 * Returns the app, or null when another instance already runs (it is focused instead).
 */
export function bootDesktopApp(deps: DesktopAppDeps): DesktopApp | null {
  // Tests and portable setups give each instance its own profile (and lock: the lock is per userData).
  if (deps.env.AGENTTEAM_USER_DATA_DIR !== undefined) app.setPath('userData', deps.env.AGENTTEAM_USER_DATA_DIR);
  // Local minidumps only (<userData>/Crashpad), for children created after this (reliability-perf.md §4).
  crashReporter.start({ uploadToServer: false });
  registerAppScheme();
  app.enableSandbox();
  // Windows shows notifications only for an app with an AppUserModelID (the appId of electron-builder.yml).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // electron-vite's dev server, only when running unpackaged.
  const devUrl = app.isPackaged ? undefined : deps.env.ELECTRON_RENDERER_URL;
  const policy = appNavigationPolicy(devUrl === undefined ? [] : [devUrl]);
  const desktop = new DesktopApp(deps, policy, devUrl ?? APP_ENTRY_URL);

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, policy));
  app.on('second-instance', () => desktop.focusWake(null));
  app.on('activate', () => {
    if (app.isReady()) desktop.openWindow();
  });
  app.on('window-all-closed', () => {
    // macOS keeps the app (and the agents) running with no window, as its apps do.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (desktop.stopped) return;
    event.preventDefault();
    void desktop.stop().finally(() => app.quit());
  });
  // A terminal's Ctrl-C or a service stop drains like a normal quit.
  const onSignal = () => app.quit();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  app.once('will-quit', () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  });

  void app
    .whenReady()
    .then(() => desktop.start())
    .catch((error: unknown) => {
      dialog.showErrorBox('AgentTeam could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
  return desktop;
}
