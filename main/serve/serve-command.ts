/**
 * `agentteam serve --data-dir DIR [--port N]`: the composition root of the headless daemon
 * (STYLE.md habit 5). Builds the same daemon as the app, serves the UI and the API on
 * 127.0.0.1, prints the URL (with the token) once, and on SIGINT/SIGTERM shuts down in order:
 * stop taking calls, let in-flight calls finish, stop the daemon (which drains writes and stops
 * runtimes), remove serve.json.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentCliLauncher } from '../daemon/runtime/agent-cli-shim.js';
import type { DaemonLog } from '../daemon/daemon-log.js';
import type { Daemon, DaemonOptions } from '../daemon/daemon-types.js';
import { OperatorHandover } from './operator-handover.js';
import { startServeServer, type ServeServer } from './serve-server.js';
import { pidAlive, readServeState, removeServeState, writeServeState } from './serve-state.js';
import { loadOrCreateToken, newOperatorKey, operatorKeyPath, removeOperatorKey, writeOperatorKey } from './token.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * issue 41: whether `out` is a terminal. Only then does `serve` print the operator key (in the
   * URL's fragment): a file or the journal behind stdout is readable by any process of this user
   * through `/proc/<daemon>/fd/1`, an agent's too. Default false.
   */
  readonly outIsTerminal?: boolean;
}

export interface ServeCommandDeps {
  readonly createDaemon: (options: DaemonOptions) => Promise<Daemon>;
  readonly rendererDir: string | null;
  /** Resolves with the signal name when the process is asked to stop. */
  readonly stopRequested: Promise<string>;
  readonly io: CliIo;
  /** Called once the server listens (tests use it instead of parsing stdout). */
  readonly onListening?: (server: ServeServer) => void;
  readonly pid?: number;
  /** issue 29: the operator key of this start (tests); default a fresh random one. */
  readonly operatorKey?: string;
  /** issue 14: how to run this CLI again (the `agentteam` shim on the agents' PATH). */
  readonly agentCli?: AgentCliLauncher;
}

/** The built renderer next to this module: `out/renderer` from `out/main/cli.js` or from the source tree. */
export function findRendererDir(moduleUrl: string = import.meta.url): string | null {
  const here = dirname(fileURLToPath(moduleUrl));
  for (const dir of [join(here, '..', 'renderer'), join(here, '..', '..', 'out', 'renderer')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

/** A DaemonLog on stderr; debug only with AGENTTEAM_DEBUG=1. Fields never carry message content. */
export function stderrLog(io: CliIo, debug = process.env.AGENTTEAM_DEBUG === '1'): DaemonLog {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    io.err(
      `${new Date().toISOString()} ${level} ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`,
    );
  return {
    debugEnabled: debug,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: debug ? line('debug') : () => undefined,
  };
}

/** Runs the server until a stop is requested; returns the process exit code. */
export async function serveCommand(dataDirArg: string, port: number, deps: ServeCommandDeps): Promise<number> {
  const { io } = deps;
  const pid = deps.pid ?? process.pid;
  const dataDir = resolve(dataDirArg);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const running = await readServeState(dataDir);
  if (running !== null && running.pid !== pid && pidAlive(running.pid)) {
    io.err(
      `agentteam: a daemon (pid ${running.pid}) already serves ${dataDir} on port ${running.port}; stop it first or use another --data-dir.`,
    );
    return 1;
  }
  const log = stderrLog(io);
  let daemon: Daemon;
  try {
    daemon = await deps.createDaemon({
      dataDir,
      log,
      ...(deps.agentCli === undefined ? {} : { agentCli: deps.agentCli }),
    });
  } catch (err) {
    io.err(`agentteam: the daemon could not start: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  // issue 16: only after the config was accepted — a refused config writes nothing (no serve-token).
  let token: string;
  try {
    token = await loadOrCreateToken(dataDir);
  } catch (err) {
    await daemon.stop();
    io.err(`agentteam: could not write ${dataDir}/serve-token: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  // issue 29: this start's operator key; issue 41: kept for the operator's CLI in a 0600 file of the
  // data dir (token.ts writeOperatorKey), never in an `export` line for the shell's history.
  const operatorKey = deps.operatorKey ?? newOperatorKey();
  // issue 40 item 1: the previous start's pages regain the operator's authority by their hand-over secret.
  let handover: OperatorHandover;
  try {
    await writeOperatorKey(dataDir, operatorKey);
    handover = await OperatorHandover.open(dataDir, operatorKey, log);
  } catch (err) {
    await daemon.stop();
    io.err(
      `agentteam: could not write ${operatorKeyPath(dataDir)}: ${err instanceof Error ? err.message : String(err)}`,
    );
    return 1;
  }
  let server: ServeServer;
  try {
    server = await startServeServer({ daemon, token, operatorKey, handover, port, rendererDir: deps.rendererDir, log });
  } catch (err) {
    await daemon.stop();
    const code = (err as NodeJS.ErrnoException).code;
    io.err(
      code === 'EADDRINUSE'
        ? `agentteam: port ${port} on 127.0.0.1 is in use; pick another with --port N (0 = any free port).`
        : `agentteam: could not listen on 127.0.0.1:${port}: ${String(err)}`,
    );
    return 1;
  }
  await writeServeState(dataDir, { port: server.port, pid, startedAt: new Date().toISOString() });
  if (deps.rendererDir === null)
    io.err(
      'agentteam: the UI is not built (no out/renderer); the API, /metrics and /healthz still work. Run "npm run build" for the UI.',
    );
  // The token is printed once, as part of the URL (issue 8); it is also in <data-dir>/serve-token.
  // issue 41: the operator key (the URL's fragment) only to a terminal; elsewhere the URL without it,
  // and `agentteam url` prints the whole URL when the operator asks for it.
  if (io.outIsTerminal === true) io.out(`AgentTeam is serving ${dataDir} at ${server.url}`);
  else {
    io.out(`AgentTeam is serving ${dataDir} at ${server.urlWithoutOperatorKey}`);
    io.out(
      `Open the UI with the URL "agentteam url --data-dir ${dataDir}" prints (it adds the operator key, which is kept in ${operatorKeyPath(dataDir)}, not printed here).`,
    );
  }
  io.out(`The operator's commands (send, approve, stop, …) read the operator key from ${operatorKeyPath(dataDir)}.`);
  deps.onListening?.(server);

  const signal = await deps.stopRequested;
  log.info('serve: shutting down', { signal });
  await server.close();
  await daemon.stop();
  await removeOperatorKey(dataDir, operatorKey);
  await handover.settled();
  await removeServeState(dataDir, pid);
  log.info('serve: stopped');
  return 0;
}

/** Resolves on the first SIGINT/SIGTERM; a second one exits at once (a stuck shutdown is never a trap). */
export function processStopSignal(): Promise<string> {
  return new Promise((resolveStop) => {
    let asked = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (asked) process.exit(130);
      asked = true;
      resolveStop(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
