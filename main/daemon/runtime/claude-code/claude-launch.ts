/**
 * The command line and environment of one Claude Code process (research/runtimes.md §2–3):
 * stream-json in and out, our MCP server only (`alwaysLoad` so the tool is not deferred
 * behind ToolSearch), both tools allowed without prompts, per-agent HOME and
 * CLAUDE_CONFIG_DIR, telemetry and non-essential traffic off. The agent's `args` and `env`
 * from config go last, on top (DESIGN.md "Config").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import { MCP_SERVER_NAME, TOOL_MESSAGE_SEND, TOOL_REACTION } from '../../mcp/mcp-names.js';
import type { McpToolNaming } from '../../prompt/tool-names.js';
import type { AuthMode } from '../../../../shared/agent-readiness.js';
import { CLAUDE_ISOLATION_ARGS, claudeSignInEnv } from './claude-auth.js';
import { currentPersonProfile, type PersonProfile } from '../auth/person-profile.js';
import type { PermissionPolicy } from '../../../../shared/config.js';
import { claudePermissionArgs } from './claude-permissions.js';

/**
 * How Claude Code names our tools, `mcp__<server>__<tool>` (research/runtimes.md §2): its
 * descriptor's `toolNaming`, the one owner of the naming the prompts use too (issue 39).
 */
export const CLAUDE_TOOL_NAMING: McpToolNaming = {
  name: (tool) => `mcp__${MCP_SERVER_NAME}__${tool}`,
  namespace: null,
};
export const CLAUDE_SEND_TOOL = CLAUDE_TOOL_NAMING.name(TOOL_MESSAGE_SEND);
export const CLAUDE_REACTION_TOOL = CLAUDE_TOOL_NAMING.name(TOOL_REACTION);

/** Variables a person's shell may need to reach their provider; everything else is not inherited. */
const INHERITED_ENV =
  /^(PATH|LANG|LC_[A-Z]+|TZ|TMPDIR|TERM|SYSTEMROOT|ANTHROPIC_[A-Z_]+|CLAUDE_CODE_USE_[A-Z]+|AWS_[A-Z_]+|GOOGLE_[A-Z_]+|CLOUD_ML_REGION|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE)$/;

export interface ClaudeLaunchInput {
  /** `command` from config; null → this project's node_modules/.bin/claude, else `claude` on PATH. */
  readonly command: string | null;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly model: string | null;
  readonly mcp: McpEndpoint;
  /** Per-agent runtime dir: HOME and CLAUDE_CONFIG_DIR live under it. */
  readonly runtimeDir: string;
  /** Session to resume (only when the thread-contract fingerprint matched). */
  readonly resumeSessionId: string | null;
  /** The daemon's environment, filtered by INHERITED_ENV. */
  readonly processEnv: Readonly<Record<string, string | undefined>>;
  /** Where this project is installed (for node_modules/.bin/claude). */
  readonly projectRoot: string;
  /** The agent's thread contract (stable instructions, never the per-turn contract block: §8.1). */
  readonly threadContract?: string | null;
  /** issue 15: the person's sign-in (default `cli-login`) and where it lives (default: this process's user). */
  readonly auth?: AuthMode;
  readonly person?: PersonProfile;
  /** issue 14: the agent's permission policy (claude-permissions.ts); absent → `read-only` (dontAsk). */
  readonly permissions?: PermissionPolicy;
  /** issue 29: paths its tools are denied under every policy (workspace.ts `toolDeniedPaths`; a trailing `/` marks a folder). */
  readonly deniedPaths?: readonly string[];
  /** issue 41: the repository's git metadata its file tools may not write (workspace.ts `gitMetadataPaths`). */
  readonly gitPaths?: readonly string[];
}

export interface ClaudeLaunch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly home: string;
  readonly configDir: string;
  /** Written (mode 0600) before the spawn: the MCP config holds the agent's bearer token, which must not appear in argv (visible to every local user). */
  readonly mcpConfigFile: { readonly path: string; readonly content: string };
}

export function resolveClaudeCommand(command: string | null, projectRoot: string): string {
  if (command !== null) return command;
  const local = join(projectRoot, 'node_modules', '.bin', 'claude');
  return existsSync(local) ? local : 'claude';
}

/**
 * issue 29: `--settings` with `permissions.deny` rules keeping Claude Code's own file tools (Read,
 * Edit/Write and the searches) out of the data dir's daemon state. `//` starts an absolute path in
 * a rule; a folder is denied with its whole subtree (`/**`). Deny rules win in every permission
 * mode, `bypassPermissions` (our `full`) included. They do not bind a Bash command (`cat` reads
 * what `Read` may not): under `ask` and `auto-edit` commands are asked; under `full` nothing is.
 * JSON, not `--disallowedTools`, so a path with a space or a comma stays one rule.
 */
export function claudeDenyArgs(paths: readonly string[], gitPaths: readonly string[] = []): string[] {
  if (paths.length === 0 && gitPaths.length === 0) return [];
  const rules = (p: string, tools: readonly string[]) => {
    const dir = p.endsWith('/');
    // An absolute path `/x/y` becomes the rule path `//x/y`.
    const path = `/${dir ? p.slice(0, -1) : p}`;
    return tools.map((t) => (dir ? `${t}(${path}/**)` : `${t}(${path})`));
  };
  // issue 41: git metadata is readable (the agent may look at its history) but never written by a file tool.
  const deny = [...paths.flatMap((p) => rules(p, ['Read', 'Edit'])), ...gitPaths.flatMap((p) => rules(p, ['Edit']))];
  return ['--settings', JSON.stringify({ permissions: { deny } })];
}

export function claudeLaunch(input: ClaudeLaunchInput): ClaudeLaunch {
  const home = join(input.runtimeDir, 'home');
  const configDir = join(input.runtimeDir, 'claude-config');
  const mcpConfig = {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: 'http', url: input.mcp.url, headers: input.mcp.headers, alwaysLoad: true },
    },
  };
  const mcpConfigFile = {
    path: join(input.runtimeDir, 'mcp.json'),
    content: `${JSON.stringify(mcpConfig, null, 2)}\n`,
  };
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--mcp-config',
    mcpConfigFile.path,
    '--strict-mcp-config',
    '--allowedTools',
    `${CLAUDE_SEND_TOOL},${CLAUDE_REACTION_TOOL}`,
    ...claudePermissionArgs(input.permissions ?? 'read-only'),
    ...CLAUDE_ISOLATION_ARGS,
    ...claudeDenyArgs(input.deniedPaths ?? [], input.gitPaths ?? []),
  ];
  if (input.threadContract) args.push('--append-system-prompt', input.threadContract);
  if (input.model !== null) args.push('--model', input.model);
  if (input.resumeSessionId !== null) args.push('--resume', input.resumeSessionId);
  args.push(...input.args);
  const inherited: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.processEnv)) if (v !== undefined && INHERITED_ENV.test(k)) inherited[k] = v;
  const env: Record<string, string> = {
    ...inherited,
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // issue 15: the person's credential store only (claude-auth.ts); the agent's own env still wins.
    ...claudeSignInEnv(input.auth ?? 'cli-login', input.person ?? currentPersonProfile()),
    ...input.env,
  };
  return { command: resolveClaudeCommand(input.command, input.projectRoot), args, env, home, configDir, mcpConfigFile };
}
