/**
 * `agentteam agent send|react`: the CLI agent-tools surface (contract §8.2/§11; DESIGN.md "More
 * CLI") an agent runs from its own shell. It authenticates with the agent's token from its
 * environment (set by the daemon on every runtime process: mcp/agent-tools-env.ts), never the
 * operator's serve token, and calls the daemon's MCP tools, so the scope guard, rate limit and
 * delivery tracker are exactly those of `message_send` / `reaction`.
 *
 * It lives with the MCP client (not in serve/) because two entries run it: the `agentteam` CLI
 * under Node and the desktop app's own binary (main/app/app-cli.ts), each through the shim the
 * daemon puts on the runtime's PATH (runtime/agent-cli-shim.ts).
 *
 * Output is for a model to read: the tool's result as one JSON line on stdout; a refusal is one
 * line on stderr with its code (exit 1); a usage error exit 2.
 */
import { parseArgs } from 'node:util';
import { callAgentTool } from './agent-tools-client.js';
import { AGENT_MCP_URL_ENV, AGENT_TOKEN_ENV } from './agent-tools-env.js';
import { TOOL_MESSAGE_SEND, TOOL_REACTION } from './mcp-names.js';

/** Where the command writes (the `agentteam` CLI's io in serve; the app binary's stdout/stderr). */
export interface AgentCommandIo {
  out(line: string): void;
  err(line: string): void;
}

export const AGENT_USAGE = `  agentteam agent send --target T --content C [--allow-cross-target]   (from an agent's shell; --content - reads stdin)
  agentteam agent react --message-id M --emoji E`;

export interface AgentCommandDeps {
  readonly io: AgentCommandIo;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where `--content -` reads from. */
  readonly readStdin?: () => Promise<string>;
}

class AgentUsageError extends Error {}

const OPTIONS = {
  target: { type: 'string' },
  content: { type: 'string' },
  'allow-cross-target': { type: 'boolean' },
  'message-id': { type: 'string' },
  emoji: { type: 'string' },
} as const;

async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function agentCommand(argv: readonly string[], deps: AgentCommandDeps): Promise<number> {
  const { io } = deps;
  const [sub, ...rest] = argv;
  try {
    if (sub !== 'send' && sub !== 'react')
      throw new AgentUsageError(`"${sub ?? ''}" is not an agent command; use "agent send" or "agent react"`);
    let values: Record<string, string | boolean | undefined>;
    try {
      ({ values } = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: false }));
    } catch (err) {
      throw new AgentUsageError(err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err));
    }
    const allowed = sub === 'send' ? ['target', 'content', 'allow-cross-target'] : ['message-id', 'emoji'];
    for (const key of Object.keys(values))
      if (!allowed.includes(key)) throw new AgentUsageError(`--${key} is not an option of "agent ${sub}"`);
    const need = (key: string): string => {
      const v = values[key];
      if (typeof v !== 'string' || v === '') throw new AgentUsageError(`--${key} is required`);
      return v;
    };
    let tool: typeof TOOL_MESSAGE_SEND | typeof TOOL_REACTION;
    let args: Record<string, unknown>;
    if (sub === 'send') {
      tool = TOOL_MESSAGE_SEND;
      args = {
        target: need('target'),
        content: need('content'),
        ...(values['allow-cross-target'] === true ? { allow_cross_target: true } : {}),
      };
    } else {
      tool = TOOL_REACTION;
      args = { message_id: need('message-id'), emoji: need('emoji') };
    }
    const env = deps.env ?? process.env;
    const url = env[AGENT_MCP_URL_ENV];
    const token = env[AGENT_TOKEN_ENV];
    if (url === undefined || url === '' || token === undefined || token === '') {
      io.err(
        `agentteam agent ${sub}: ${AGENT_MCP_URL_ENV} and ${AGENT_TOKEN_ENV} are not set; this command runs inside an agent's runtime, which the AgentTeam daemon starts with them. (An operator posts with "agentteam send".)`,
      );
      return 2;
    }
    if (args.content === '-') args.content = await (deps.readStdin ?? readAll)();
    const result = await callAgentTool({ url, token }, tool, args);
    if (!result.ok) {
      io.err(`agentteam agent ${sub}: ${result.message} (${result.code})`);
      return 1;
    }
    io.out(JSON.stringify(result.value));
    return 0;
  } catch (err) {
    if (err instanceof AgentUsageError) {
      io.err(`agentteam agent: ${err.message}. Usage:\n${AGENT_USAGE}`);
      return 2;
    }
    throw err;
  }
}

/**
 * The switch every agents' shim puts before the agent's arguments (runtime/agent-cli-shim.ts),
 * then `--`: that run is `agentteam agent send|react` and nothing else. Issue 29: under
 * `agentteam serve` the shim once ran the whole CLI (approve, deny, revoke); now the Node entry
 * (serve/cli.ts) and the desktop binary (main/app/app-cli.ts) both see this switch and run only
 * `agentOnlyCommand`. (The operator key, not this, is what refuses an operator call: a process can
 * run the CLI entry without the shim; the shim just offers agents nothing else.)
 */
export const AGENT_ONLY_SWITCH = '--agentteam-cli';
/** Chromium and our parser stop reading switches here: nothing of the agent's is taken as a launcher switch. */
export const END_OF_SWITCHES = '--';

/** The agent's arguments when `args` starts with the switch (its `--` stripped), or null for a normal CLI run. */
export function agentOnlyArgs(args: readonly string[]): string[] | null {
  if (args[0] !== AGENT_ONLY_SWITCH) return null;
  return args.slice(args[1] === END_OF_SWITCHES ? 2 : 1);
}

/**
 * Runs one command of the agents' shim: `agent …` only; anything else is a usage error (exit 2)
 * naming where the operator's commands are (`operatorCli`, e.g. "the agentteam CLI in a terminal").
 */
export async function agentOnlyCommand(
  args: readonly string[],
  deps: AgentCommandDeps,
  operatorCli: string,
): Promise<number> {
  const [group, ...rest] = args;
  if (group !== 'agent') {
    deps.io.err(
      `agentteam: the agents' agentteam runs only "agentteam agent send|react"; "${group ?? ''}" is the operator's and needs ${operatorCli}.`,
    );
    return 2;
  }
  return agentCommand(rest, deps);
}
