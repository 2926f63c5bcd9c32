/**
 * issue 43: the `ssh` command lines of a host agent, built as data (pure, table-tested):
 *
 * - every connection goes through the person's own OpenSSH setup (`~/.ssh/config`, agent, keys,
 *   `known_hosts`) with `BatchMode=yes` (never a prompt nobody can answer) and
 *   `StrictHostKeyChecking=yes` (an unknown host key is refused, never accepted silently);
 * - one master connection per host (`ControlMaster`/`ControlPath`), so a wake pays no handshake;
 * - the CLI's environment travels in the remote command (`env K=V … command`, each word quoted
 *   for the remote POSIX shell), since ssh forwards none;
 * - paths under the agent's runtime dir on this machine become the same paths under
 *   `~/.agentteam/runtimes/<agent id>` on the host (its HOME, config dirs, MCP config), shipped
 *   there before each start (ssh-launcher.ts);
 * - the CLI runs under a wrapper (REMOTE_WRAPPER) that ends its whole process group when the
 *   SSH channel's stdin ends: a Stop, a daemon stop and a dropped connection all leave no
 *   process of the agent on the host.
 */
import { createHash } from 'node:crypto';
import type { SshHost } from '../../../shared/agent-host.js';

/** How this daemon's `ssh` is run: the person's own setup, or (tests) a config file of its own. */
export interface SshSetup {
  /** The `ssh` program (default `ssh` on PATH). */
  readonly ssh?: string;
  /** `-F <file>`: an ssh config file instead of `~/.ssh/config` (tests). */
  readonly configFile?: string;
  /** Where the master connections' sockets live (short: a Unix socket path has ~100 bytes). */
  readonly controlDir: string;
}

/** The master connection's socket of one host: a short hash of the address (a host name may be 253 bytes). */
export function controlPathOf(host: SshHost, setup: SshSetup): string {
  const key = `${host.user}@${host.hostname}:${host.port}`;
  return `${setup.controlDir}/${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** A word for a POSIX shell: single-quoted, `'` written as `'\''`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where the agent's runtime dir lives on its host, relative to the remote user's home. */
export function remoteRuntimeDir(agentId: string): string {
  return `.agentteam/runtimes/${agentId}`;
}

/** The remote shell variable the runtime dir is in (set by the remote command's first words). */
const RUNTIME_DIR_VAR = 'AGENTTEAM_RUNTIME_DIR';

/**
 * One word of the remote command: a path in the local runtime dir becomes the same path in the
 * remote one (`"$AGENTTEAM_RUNTIME_DIR"/…`); anything else is quoted as it is.
 */
export function remoteWord(value: string, localRuntimeDir: string): string {
  if (value === localRuntimeDir) return `"$${RUNTIME_DIR_VAR}"`;
  if (value.startsWith(`${localRuntimeDir}/`))
    return `"$${RUNTIME_DIR_VAR}"${shellQuote(value.slice(localRuntimeDir.length))}`;
  return shellQuote(value);
}

/** The options every ssh of this daemon carries: the person's setup, batch mode, strict host keys, the master. */
export function sshOptions(host: SshHost, setup: SshSetup): string[] {
  return [
    ...(setup.configFile === undefined ? [] : ['-F', setup.configFile]),
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    `ControlPath=${controlPathOf(host, setup)}`,
    '-o',
    'ConnectTimeout=15',
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
    '-p',
    String(host.port),
    '-l',
    host.user,
  ];
}

/** The master connection of one host: no command, held open until the daemon ends it. */
export function masterArgs(host: SshHost, setup: SshSetup): string[] {
  return [...sshOptions(host, setup), '-o', 'ControlMaster=yes', '-o', 'ControlPersist=no', '-N', '-T', host.hostname];
}

/** A command over the master (falls back to its own connection when the master is gone). */
export function clientArgs(host: SshHost, setup: SshSetup, extra: readonly string[], command: string): string[] {
  return [...sshOptions(host, setup), '-o', 'ControlMaster=no', '-T', ...extra, '--', host.hostname, command];
}

/**
 * The wrapper the CLI runs under on the host (POSIX sh, Linux `setsid`): the CLI in a session and
 * process group of its own, reading a FIFO this shell feeds from the SSH channel's stdin. When that
 * stdin ends — the daemon closed it (stop), the session was killed, or the connection dropped —
 * the CLI reads EOF (stream-json ends cleanly), and after a grace its whole group is ended (TERM,
 * then KILL). When the CLI exits first, what it left is ended and its exit status is the session's.
 */
export const REMOTE_WRAPPER = [
  'fifo=$(mktemp -u "${TMPDIR:-/tmp}/agentteam-stdin.XXXXXXXX") && mkfifo -m 600 "$fifo" || exit 125',
  // A background job's stdin is /dev/null without job control: the channel's stays reachable as fd 3.
  'exec 3<&0',
  'setsid "$@" <"$fifo" 3<&- &',
  'child=$!',
  '(',
  '  cat <&3 >"$fifo"',
  '  i=0; while kill -0 "$child" 2>/dev/null && [ "$i" -lt 30 ]; do sleep 0.1; i=$((i+1)); done',
  '  kill -TERM "-$child" 2>/dev/null',
  '  i=0; while kill -0 "-$child" 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.1; i=$((i+1)); done',
  '  kill -KILL "-$child" 2>/dev/null',
  ') >/dev/null 2>&1 &',
  'relay=$!',
  'wait "$child"; code=$?',
  'kill -KILL "-$child" 2>/dev/null',
  'kill "$relay" 2>/dev/null',
  'rm -f "$fifo"',
  'exit "$code"',
].join('\n');

/** Exit status of the remote command when the agent's `cwd` is not a folder on the host. */
export const NO_CWD_STATUS = 124;

export interface RemoteLaunch {
  readonly agentId: string;
  /** The CLI on the host (a path there, or a name on the remote user's PATH). */
  readonly command: string;
  readonly args: readonly string[];
  /** The CLI's environment (already the one it must see on the host). */
  readonly env: Readonly<Record<string, string>>;
  /** Absolute folder on the host; null: the remote runtime dir's `workspace`. */
  readonly cwd: string | null;
  /** This machine's runtime dir of the agent (its paths are mapped to the remote one). */
  readonly localRuntimeDir: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The remote command line: runtime dir, cwd, then `sh -c WRAPPER` running `env K=V … command args…`. */
export function remoteCommand(l: RemoteLaunch): string {
  const word = (v: string) => remoteWord(v, l.localRuntimeDir);
  const envWords = Object.entries(l.env)
    .filter(([k]) => ENV_NAME.test(k))
    .map(([k, v]) => `${k}=${word(v)}`);
  const cwd = l.cwd === null ? `"$${RUNTIME_DIR_VAR}"/workspace` : shellQuote(l.cwd);
  return [
    `${RUNTIME_DIR_VAR}="$HOME"/${shellQuote(remoteRuntimeDir(l.agentId))}`,
    `&& mkdir -p "$${RUNTIME_DIR_VAR}"/workspace`,
    `&& { cd ${cwd} 2>/dev/null || { echo ${shellQuote(`agentteam: no folder ${l.cwd ?? 'workspace'} on this host`)} >&2; exit ${NO_CWD_STATUS}; }; }`,
    `&& exec sh -c ${shellQuote(REMOTE_WRAPPER)} agentteam-cli env ${envWords.join(' ')} ${word(l.command)} ${l.args.map(word).join(' ')}`,
  ].join(' ');
}

/** The remote command that receives the shipped runtime dir (a tar stream on stdin). */
export function receiveRuntimeDirCommand(agentId: string): string {
  const dir = shellQuote(remoteRuntimeDir(agentId));
  return `umask 077 && mkdir -p ${dir} && chmod 700 ${dir} && tar -C ${dir} -xf -`;
}
