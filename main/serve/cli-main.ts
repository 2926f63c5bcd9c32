/**
 * The `agentteam` command line (DESIGN.md "CLI"): parses argv and dispatches to a subcommand.
 * Exit codes: 0 ok, 1 no daemon / the daemon refused or failed, 2 bad input. Every error is
 * one line on stderr saying what to do.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readinessFix, readinessLabel } from '../../shared/agent-readiness.js';
import type { Agent, AuditRecord, Message, Wake } from '../../shared/api/contract.js';
import { DEFAULT_PERMISSION_POLICY } from '../../shared/config.js';
import { parseTarget } from '../../shared/target.js';
import type { Daemon, DaemonOptions } from '../daemon/daemon-types.js';
import {
  ApprovalUsageError,
  answerCommand,
  approvalsCommand,
  operatorKeyFrom,
  revokeCommand,
} from './approvals-cli.js';
import { STOP_USAGE, StopUsageError, stopCommand } from './stop-cli.js';
import { CHANGES_USAGE, ChangesUsageError, changesCommand } from './changes-cli.js';
import { CHAIN_USAGE, ChainUsageError, chainCommand } from './chain-cli.js';
import { WORKTREE_USAGE, WorktreeUsageError, discardCommand, mergeCommand } from './worktree-cli.js';
import { USAGE_CLI_USAGE, UsageCliError, usageCommand } from './usage-cli.js';
import { failed, withDaemon } from './daemon-client.js';
import { defaultDataDir } from './default-data-dir.js';
import {
  findRendererDir,
  processStopSignal,
  serveCommand,
  type CliIo,
  type ServeCommandDeps,
} from './serve-command.js';
import { escapeForTerminal } from './terminal-text.js';
import { pidAlive, readServeState } from './serve-state.js';
import { readOperatorKey, readToken } from './token.js';
import { WS_OPERATOR_PARAM } from '../../shared/api/ws-protocol.js';
import { AGENT_USAGE, agentCommand } from '../daemon/mcp/agent-tools-command.js';
import type { AgentCliLauncher } from '../daemon/runtime/agent-cli-shim.js';

export interface CliDeps {
  readonly io: CliIo;
  readonly createDaemon: (options: DaemonOptions) => Promise<Daemon>;
  /** Overrides for `serve` (tests). */
  readonly serve?: Partial<Pick<ServeCommandDeps, 'rendererDir' | 'stopRequested' | 'onListening'>>;
  /** The environment the operator commands read `AGENTTEAM_OPERATOR_KEY` from (issue 29); default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** issue 14: how this process runs the CLI again, for the `agentteam` shim on the agents' PATH (cli.ts). */
  readonly agentCli?: AgentCliLauncher;
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  // issue 41: `serve` prints the operator key only to a terminal.
  outIsTerminal: process.stdout.isTTY === true,
};

class UsageError extends Error {}

const OPTIONS = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  target: { type: 'string' },
  text: { type: 'string' },
  json: { type: 'boolean' },
  limit: { type: 'string' },
  create: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  check: { type: 'boolean' },
  agent: { type: 'string' },
} as const;

function parse(argv: readonly string[], allowed: ReadonlyArray<keyof typeof OPTIONS>) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.split('\n')[0] : String(err));
  }
  for (const key of Object.keys(values)) {
    if (!allowed.includes(key as keyof typeof OPTIONS))
      throw new UsageError(`--${key} is not an option of this command`);
  }
  return values;
}

function required(values: Record<string, unknown>, key: string): string {
  const v = values[key];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${key} is required`);
  return v;
}

/** `--data-dir`, else the default data dir (the one `npm start` and the app use; DESIGN.md "More CLI"). */
function dataDirOf(values: Record<string, unknown>): string {
  if (values['data-dir'] === undefined) return defaultDataDir();
  return required(values, 'data-dir');
}

function intOption(values: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = values[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max)
    throw new UsageError(`--${key} must be a whole number from ${min} to ${max}`);
  return n;
}

function target(values: Record<string, unknown>): string {
  const parsed = parseTarget(required(values, 'target'));
  if (!parsed.ok) throw new UsageError(parsed.error.message);
  return parsed.key;
}

/**
 * One object per wake, exactly the fields DESIGN.md names for `wakes --json` — with the contract
 * §10.1 fields: the agent's technical and display names as resolved when the wake was accepted,
 * and the model of its runtime context (null when none is set).
 */
export function wakeJson(w: Wake) {
  return {
    wakeToken: w.wakeToken,
    messageId: w.messageId,
    agentId: w.agentId,
    agentTechnicalName: w.agentTechnicalName,
    agentName: w.agentName,
    runtime: w.runtime,
    model: w.model,
    target: w.target,
    status: w.status,
    reason: w.reason,
    beacons: w.beacons,
    finalCheck: w.finalCheck,
    createdAt: w.createdAt,
    endedAt: w.endedAt,
    recoveries: w.recoveries,
  };
}

/** A stored message for `messages --json`: id, seq, author, content (plus who and when). */
export function messageJson(m: Message) {
  return {
    id: m.id,
    seq: m.seq,
    target: m.target,
    author: m.authorId,
    authorName: m.authorName,
    authorKind: m.authorKind,
    content: m.content,
    createdAt: m.createdAt,
  };
}

async function send(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir', 'target', 'text', 'json', 'create']);
  const dataDir = dataDirOf(values);
  const to = target(values);
  const text = values.text;
  if (typeof text !== 'string' || text.trim() === '') throw new UsageError('--text is required and must not be empty');
  return withDaemon(dataDir, io, async (client) => {
    // issue 17: a typo must not make a channel. A channel (or a thread's channel) must exist unless --create.
    const parsed = parseTarget(to);
    if (parsed.ok && parsed.target.kind === 'channel') {
      const channel = `#${parsed.target.channel}`;
      // issue 29: that one channel only (listing them all could exceed a WebSocket message).
      const list = await client.call('conversations.list', { target: channel });
      if (!list.ok) return failed(io, list);
      if (!list.value.some((c) => c.target === channel)) {
        if (values.create !== true) {
          io.err(
            `agentteam: there is no channel ${channel}; check the name, or add --create to make it. (unknown_target)`,
          );
          return 2;
        }
        const created = await client.call('conversations.create', { target: channel });
        if (!created.ok) return failed(io, created);
      }
    }
    const r = await client.call('messages.send', { target: to, content: text });
    if (!r.ok) return failed(io, r);
    io.out(
      values.json === true
        ? JSON.stringify(r.value)
        : `sent ${r.value.messageId} seq ${r.value.seq} to ${r.value.target}`,
    );
    return 0;
  });
}

async function wakes(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir', 'target', 'json', 'limit']);
  const dataDir = dataDirOf(values);
  const to = values.target === undefined ? undefined : target(values);
  const limit = intOption(values, 'limit', 1, 1000) ?? 1000;
  return withDaemon(dataDir, io, async (client) => {
    const r = await client.call('wakes.list', { ...(to === undefined ? {} : { target: to }), limit });
    if (!r.ok) return failed(io, r);
    const rows = r.value.map(wakeJson);
    if (values.json === true) io.out(JSON.stringify(rows));
    else
      for (const w of rows)
        io.out(
          `${w.wakeToken}  ${w.agentId}  ${w.target}  ${w.status}${w.reason === null ? '' : ` (${w.reason})`}  beacons=${w.beacons}${w.finalCheck ? '  final-check' : ''}`,
        );
    return 0;
  });
}

async function messages(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir', 'target', 'json', 'limit']);
  const dataDir = dataDirOf(values);
  const to = target(values);
  const limit = intOption(values, 'limit', 1, 1_000_000);
  return withDaemon(dataDir, io, async (client) => {
    // Page backwards from the newest; print oldest first.
    const all: Message[] = [];
    let beforeSeq: number | undefined;
    for (;;) {
      const want = limit === undefined ? 500 : Math.min(500, limit - all.length);
      if (want <= 0) break;
      const r = await client.call('messages.list', {
        target: to,
        limit: want,
        ...(beforeSeq === undefined ? {} : { beforeSeq }),
      });
      if (!r.ok) return failed(io, r);
      all.push(...r.value.messages);
      const oldest = r.value.messages.reduce((min, m) => Math.min(min, m.seq), Number.POSITIVE_INFINITY);
      if (!r.value.hasMore || r.value.messages.length === 0 || oldest <= 1) break;
      beforeSeq = oldest;
    }
    all.sort((a, b) => a.seq - b.seq);
    const rows = all.map(messageJson);
    if (values.json === true) io.out(JSON.stringify(rows));
    // Agent content never reaches the terminal as control sequences (issue 16).
    else for (const m of rows) io.out(`${m.seq}  ${escapeForTerminal(m.authorName)}: ${escapeForTerminal(m.content)}`);
    return 0;
  });
}

/** issue 24 (contract §8.3): one audit record for `audit --json`. */
export function auditJson(a: AuditRecord) {
  return {
    id: a.id,
    kind: a.kind,
    agentId: a.agentId,
    agentName: a.agentName,
    target: a.target,
    messageId: a.messageId,
    wakeTokens: a.wakeTokens,
    at: a.at,
  };
}

/** How `audit` names a kind in text mode. */
const AUDIT_WORDS: Record<AuditRecord['kind'], string> = { cross_target_send: 'cross-target send' };

/** issue 24: `agentteam audit [--json] [--limit N]`, newest first. */
async function audit(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir', 'json', 'limit']);
  const dataDir = dataDirOf(values);
  const limit = intOption(values, 'limit', 1, 1000) ?? 1000;
  return withDaemon(dataDir, io, async (client) => {
    const r = await client.call('audit.list', { limit });
    if (!r.ok) return failed(io, r);
    const rows = r.value.map(auditJson);
    if (values.json === true) io.out(JSON.stringify(rows));
    // Names and targets come from agents and config: never control sequences on the terminal (issue 16).
    else
      for (const a of rows)
        io.out(
          escapeForTerminal(
            `${a.at}  ${a.agentName} (${a.agentId})  ${AUDIT_WORDS[a.kind]} to ${a.target}  message ${a.messageId}${a.wakeTokens.length === 0 ? '' : `  wakes ${a.wakeTokens.join(',')}`}`,
          ),
        );
    return 0;
  });
}

/**
 * issue 15 (DESIGN.md "More CLI"): the fields of `agents --json`, the fix in English. `state` is the
 * readiness (issue 42: `sleeping` while its CLI process is stopped until the next message).
 */
export function agentJson(a: Agent) {
  const r = a.readiness;
  const state = r?.state ?? 'starting';
  const auth = a.auth ?? 'cli-login';
  return {
    id: a.id,
    name: a.name,
    runtime: a.runtime,
    state,
    ready: r?.ready ?? false,
    reason: r?.reason ?? null,
    fix: readinessFix(state, 'en', {
      words: a.runtimeWords,
      auth,
      restart: r?.restart ?? null,
      reason: r?.reason ?? null,
    }),
    cliVersion: r?.cliVersion ?? null,
    cwd: a.cwd ?? null,
    // The daemon always sends the config's policy; an older producer that does not means the default.
    permissions: a.permissions ?? DEFAULT_PERMISSION_POLICY,
    // issue 42: what its process tree costs now (0 while it sleeps; null: this platform cannot tell).
    rssBytes: a.rssBytes ?? null,
    cpuPercent: a.cpuPercent ?? null,
  };
}

/** One agent's line of `agents` and `retry`: id, runtime, readiness, CLI version, the fix. */
const agentLine = (a: ReturnType<typeof agentJson>): string =>
  `${a.id}  ${a.runtime}  ${readinessLabel(a.state, 'en')}${a.cliVersion === null ? '' : `  ${a.cliVersion}`}${a.fix === null ? '' : `  — ${a.fix}`}`;

/**
 * issue 40 "Retry": `agentteam retry AGENT` (or `--agent AGENT`) — what every "then Retry" sentence
 * promises, as the agent page's and the failed chip's Retry: readiness is checked again and an
 * agent that could not start (or gave up) is started anew with its entry as agentteam.json has it
 * now. Prints the agent's line (or its `agents --json` row); exit 0 when it is ready, 1 when it is
 * still not (the line says why and what to do), 2 on bad input.
 */
async function retryCommand(argv: readonly string[], io: CliIo, env: Readonly<Record<string, string | undefined>>) {
  const positional = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : undefined;
  const values = parse(positional === undefined ? argv : argv.slice(1), ['data-dir', 'json', 'agent']);
  const agentId = positional ?? (typeof values.agent === 'string' ? values.agent.trim() : '');
  if (agentId === '') throw new UsageError('the agent to retry is required (agentteam retry AGENT)');
  return withDaemon(
    dataDirOf(values),
    io,
    async (client) => {
      const r = await client.call('agents.check', { agentId });
      if (!r.ok) return failed(io, r);
      const agent = r.value.find((a) => a.id === agentId);
      if (agent === undefined) {
        io.err(`agentteam: there is no agent "${escapeForTerminal(agentId)}"; see agentteam.json.`);
        return 1;
      }
      const row = agentJson(agent);
      io.out(values.json === true ? JSON.stringify(row) : escapeForTerminal(agentLine(row)));
      return row.ready ? 0 : 1;
    },
    operatorKeyFrom(env),
  );
}

async function agentsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir', 'json', 'check']);
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir();
  return withDaemon(dataDir, io, async (client) => {
    const r = values.check === true ? await client.call('agents.check', {}) : await client.call('agents.list', {});
    if (!r.ok) return failed(io, r);
    const rows = r.value.map(agentJson);
    if (values.json === true) io.out(JSON.stringify(rows));
    else for (const a of rows) io.out(agentLine(a));
    // issue 40 item 9: `--check` is a check: exit 1 while any agent cannot take work, naming each.
    const notReady = rows.filter((a) => !a.ready);
    if (values.check !== true || notReady.length === 0) return 0;
    io.err(
      `agentteam: ${notReady.length} of ${rows.length} agent(s) not ready: ${notReady.map((a) => `${a.id} (${a.state})`).join(', ')}.`,
    );
    return 1;
  });
}

/**
 * issue 41: `agentteam url`: the UI's URL with the serve token and this start's operator key (from
 * <data-dir>/operator-key), for an operator whose `agentteam serve` did not print it (its stdout
 * was not a terminal). Printed because the operator asked for it here, in their terminal.
 */
async function url(argv: readonly string[], io: CliIo): Promise<number> {
  const values = parse(argv, ['data-dir']);
  const dataDir = resolve(dataDirOf(values));
  const [state, token, key] = await Promise.all([
    readServeState(dataDir),
    readToken(dataDir),
    readOperatorKey(dataDir),
  ]);
  if (state === null || !pidAlive(state.pid) || token === null || key === null) {
    io.err(`agentteam: no daemon is running for ${dataDir}; start one with "agentteam serve --data-dir ${dataDir}".`);
    return 1;
  }
  io.out(
    `http://127.0.0.1:${state.port}/?token=${encodeURIComponent(token)}#${WS_OPERATOR_PARAM}=${encodeURIComponent(key)}`,
  );
  return 0;
}

async function serve(argv: readonly string[], deps: CliDeps): Promise<number> {
  const values = parse(argv, ['data-dir', 'port']);
  const dataDir = dataDirOf(values);
  const port = intOption(values, 'port', 0, 65_535) ?? 7777;
  return serveCommand(dataDir, port, {
    createDaemon: deps.createDaemon,
    io: deps.io,
    rendererDir: deps.serve?.rendererDir !== undefined ? deps.serve.rendererDir : findRendererDir(),
    stopRequested: deps.serve?.stopRequested ?? processStopSignal(),
    ...(deps.serve?.onListening === undefined ? {} : { onListening: deps.serve.onListening }),
    ...(deps.agentCli === undefined ? {} : { agentCli: deps.agentCli }),
  });
}

/** Runs one CLI invocation; returns the exit code. */
export async function runCli(argv: readonly string[], deps?: Partial<CliDeps>): Promise<number> {
  const io = deps?.io ?? processIo;
  const env = deps?.env ?? process.env;
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? io.err : io.out)(`${USAGE_TEXT}: ${defaultDataDir()}.`);
    return command === undefined ? 2 : 0;
  }
  try {
    switch (command) {
      case 'serve': {
        const createDaemon =
          deps?.createDaemon ??
          (await (async () => {
            const [{ createDaemon: create }, { openServeSettings }] = await Promise.all([
              import('../daemon/index.js'),
              import('./serve-settings.js'),
            ]);
            return (o: DaemonOptions) => create({ ...o, settings: openServeSettings(o.dataDir, o.log) });
          })());
        return await serve(rest, {
          io,
          createDaemon,
          ...(deps?.serve === undefined ? {} : { serve: deps.serve }),
          ...(deps?.agentCli === undefined ? {} : { agentCli: deps.agentCli }),
        });
      }
      case 'url':
        return await url(rest, io);
      case 'send':
        return await send(rest, io);
      case 'wakes':
        return await wakes(rest, io);
      case 'messages':
        return await messages(rest, io);
      case 'audit':
        return await audit(rest, io);
      case 'agent':
        return await agentCommand(rest, { io });
      case 'agents':
        return await agentsCommand(rest, io);
      // issue 40: what every "then Retry" promises — check again and start anew
      case 'retry':
        return await retryCommand(rest, io, env);
      // issue 14: the operator's approvals
      case 'approvals':
        return await approvalsCommand(rest, io);
      case 'approve':
        return await answerCommand('allow', rest, io, env);
      case 'deny':
        return await answerCommand('deny', rest, io, env);
      case 'revoke':
        return await revokeCommand(rest, io, env);
      // issue 29: the operator's Stop of a working turn
      case 'stop':
        return await stopCommand(rest, io, env);
      // issue 26: the changes of a wake, or an isolated agent's since its base
      case 'changes':
        return await changesCommand(rest, io);
      // issue 25: the operator's Continue of a chain of agents paused at its hop budget
      case 'chain':
        return await chainCommand(rest, io, env);
      // issue 26: merge or discard an isolated agent's worktree
      case 'merge':
        return await mergeCommand(rest, io, env);
      case 'discard':
        return await discardCommand(rest, io, env);
      // issue 27: what each agent consumed, its limit windows and budgets
      case 'usage':
        return await usageCommand(rest, io);
      default:
        io.err(`agentteam: unknown command "${command}"; run "agentteam --help".`);
        return 2;
    }
  } catch (err) {
    if (
      err instanceof UsageError ||
      err instanceof ApprovalUsageError ||
      err instanceof StopUsageError ||
      err instanceof ChangesUsageError ||
      err instanceof ChainUsageError ||
      err instanceof WorktreeUsageError ||
      err instanceof UsageCliError
    ) {
      io.err(`agentteam ${command}: ${err.message}; run "agentteam --help".`);
      return 2;
    }
    throw err;
  }
}

const USAGE_TEXT = `Usage:
  agentteam serve [--data-dir DIR] [--port N]      daemon + web UI + /metrics + /healthz on 127.0.0.1 (default port 7777; 0 = any)
  agentteam url [--data-dir DIR]                   the UI's URL with this start's operator key (serve prints it only to a terminal)
  agentteam send [--data-dir DIR] --target '#general' --text '@claude hi' [--create] [--json]
                                                    a channel that does not exist is an error unless --create
  agentteam wakes [--data-dir DIR] --json [--target T] [--limit N]    one JSON array, one object per wake
  agentteam messages [--data-dir DIR] --target '#general' --json [--limit N]
  agentteam audit [--data-dir DIR] [--json] [--limit N]   the audited sends (cross-target), newest first
  agentteam agents [--data-dir DIR] [--json] [--check]   each agent's runtime, readiness and the fix (--check: re-check now; exit 1 while one is not ready)
  agentteam retry [--data-dir DIR] AGENT [--json]  checks the agent again and starts it anew if it could not start (exit 1: still not ready)
  agentteam approvals [--data-dir DIR] [--json]    what agents asked the operator (pending, allowed, denied, expired, cancelled)
  agentteam approve [--data-dir DIR] ID [--scope once|session|always]
  agentteam deny [--data-dir DIR] ID [--reason TEXT]
  agentteam revoke [--data-dir DIR] --agent ID RULE   removes an "always" rule, e.g. revoke --agent claude 'Bash(npm test)'
${STOP_USAGE}
${CHANGES_USAGE}
${CHAIN_USAGE}
${WORKTREE_USAGE}
${USAGE_CLI_USAGE}
    every command but "agent" speaks as the operator: it presents the operator key "agentteam serve" keeps in <data-dir>/operator-key (or AGENTTEAM_OPERATOR_KEY)
${AGENT_USAGE}
--data-dir defaults to the app's data folder`;
