/**
 * issue 28: what `"runtime": "acp", "preset": "<name>"` launches — the verified recipes of
 * research/acp.md §2–§4 (Gemini CLI, Qwen Code, Copilot CLI): the entry to spawn directly (no
 * relaunch wrapper that ignores signals), the per-agent home (`GEMINI_CLI_HOME`, `QWEN_HOME`,
 * `COPILOT_HOME`), the settings that keep each one offline and quiet and auto-approve only our
 * `message_send`, and its session modes for the permission policies. The provider comes from
 * the agent's `env` as for the other runtimes (`GEMINI_API_KEY` + `GOOGLE_GEMINI_BASE_URL`;
 * `OPENAI_API_KEY` + `OPENAI_BASE_URL` for Qwen and Copilot).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RuntimeWords } from '../../../../shared/agent-readiness.js';
import type { AcpPreset, PermissionPolicy } from '../../../../shared/config.js';
import { MCP_SERVER_NAME, TOOL_MESSAGE_SEND, type McpTool } from '../../mcp/mcp-names.js';
import type { AcpLoginFile } from './acp-auth.js';

export interface AcpPresetInput {
  /** Per-agent home (HOME and the CLI's own state dir live under it). */
  readonly home: string;
  /** Shared by every agent of this data dir (Copilot's 235 MB package unpack). */
  readonly sharedCache: string;
  readonly projectRoot: string;
  /** The agent's own env (its provider settings). */
  readonly env: Readonly<Record<string, string>>;
  readonly model: string | null;
}

export interface AcpPresetLaunch {
  readonly command: string;
  /** Interpreter flags and entry script before the ACP flags (replaced with `command` by a config `command`). */
  readonly entry: readonly string[];
  /** The ACP flags. */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** What the driver sets after `session/new` for a policy: a mode, and (Copilot) a config option. */
export interface AcpPolicySetting {
  readonly modeId: string | null;
  readonly configOption?: { readonly configId: string; readonly value: string };
}

export interface AcpPresetSpec {
  /** The file the preset spawns, for the cli_missing message. */
  readonly cli: string;
  /** issue 39: what a person reads about it: its name, CLI, sign-in and key (shared/agent-readiness.ts). */
  readonly words: RuntimeWords;
  /**
   * issue 8: the agent a first run seeds when `command` is on PATH (the preset launches its CLI
   * itself: the seed names the preset, not the command). Null: never seeded.
   */
  readonly firstRun: { readonly agentId: string; readonly name: string; readonly command: string } | null;
  /** issue 15 (acp-auth.ts): the person's login file under a home, linked in for `cli-login`; null: none in a file. */
  readonly loginFile: AcpLoginFile;
  /** The env keys that are a sign-in of the agent's own (the first is the one a readiness note names). */
  readonly keyVariables: readonly string[];
  launch(input: AcpPresetInput): Promise<AcpPresetLaunch>;
  policy(policy: PermissionPolicy): AcpPolicySetting;
  /** Gemini: `session/load` within the session's creation minute destroys it (upstream #28693). */
  readonly loadsOnlyAfterCreationMinute: boolean;
  /**
   * issue 38: where the CLI records a turn's provider error structured when its ACP wire does not
   * (contract §6.5, §9.3: local text is never a status). Copilot answers a failed model request
   * with `end_turn` after agent text "Error: …" that the model could write as well; the same
   * failure is a `session.error` event (`errorType`, `statusCode`) in its session event log.
   * Null: the wire's own errors only (JSON-RPC error of `session/prompt`, `stopReason`).
   */
  readonly errorLog: ((home: string, sessionId: string) => string) | null;
  /** Qwen: its native compaction is announced as plain agent text. */
  readonly compactionNotice: RegExp | null;
  /** Gemini: `session/set_mode` echoes `[MODE_UPDATE] <id>` as agent text. */
  readonly modeEcho: RegExp | null;
}

/** Node for the JS CLIs: this process's own (Electron runs as Node with ELECTRON_RUN_AS_NODE). */
function nodeCommand(): { command: string; env: Record<string, string> } {
  return {
    command: process.execPath,
    env: process.versions.electron === undefined ? {} : { ELECTRON_RUN_AS_NODE: '1' },
  };
}

function packageFile(projectRoot: string, ...parts: string[]): string {
  return join(projectRoot, 'node_modules', ...parts);
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

/**
 * issue 28: how each ACP preset's CLI names an MCP tool of the server it got in `session/new`
 * (research/acp.md §1, observed on the wire and asserted by the conformance test against the
 * tools the agent really offers its model): Gemini `mcp_<server>_<tool>`, Qwen
 * `mcp__<server>__<tool>`, Copilot `<server>-<tool>`. An agent without a preset: the bare name
 * with its server (the prompt says which server it belongs to).
 */
export function acpToolName(preset: AcpPreset | undefined, tool: McpTool): string {
  switch (preset) {
    case 'gemini':
      return `mcp_${MCP_SERVER_NAME}_${tool}`;
    case 'qwen':
      return `mcp__${MCP_SERVER_NAME}__${tool}`;
    case 'copilot':
      return `${MCP_SERVER_NAME}-${tool}`;
    case undefined:
      return tool;
  }
}

const send = (preset: AcpPreset) => acpToolName(preset, TOOL_MESSAGE_SEND);

const GEMINI: AcpPresetSpec = {
  cli: '@google/gemini-cli (bundle/gemini.js)',
  words: { label: 'Gemini CLI', cli: '`gemini`', login: '`gemini` (Login with Google)', key: '`GEMINI_API_KEY`' },
  firstRun: { agentId: 'gemini', name: 'Gemini', command: 'gemini' },
  loginFile: ['.gemini', 'oauth_creds.json'],
  keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  async launch({ home, projectRoot, env, model }) {
    const entry = packageFile(projectRoot, '@google', 'gemini-cli', 'bundle', 'gemini.js');
    // research/acp.md §2: every setting here is required offline (usage statistics → Clearcut DNS).
    await writeJson(join(home, '.gemini', 'settings.json'), {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 2 },
      tools: { allowed: [send('gemini')] },
    });
    const node = nodeCommand();
    return {
      command: existsSync(entry) ? node.command : 'gemini',
      entry: existsSync(entry) ? [entry] : [],
      args: ['--acp'],
      env: {
        ...node.env,
        HOME: home,
        GEMINI_CLI_HOME: home,
        // Without it gemini.js relaunches itself and its parent ignores SIGTERM.
        GEMINI_CLI_NO_RELAUNCH: 'true',
        // Untrusted folders never contact the ACP-provided MCP server.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        ...(model === null || env.GEMINI_MODEL !== undefined ? {} : { GEMINI_MODEL: model }),
      },
    };
  },
  policy: (p) => ({ modeId: { ask: 'default', 'read-only': 'plan', 'auto-edit': 'autoEdit', full: 'yolo' }[p] }),
  loadsOnlyAfterCreationMinute: true,
  errorLog: null,
  compactionNotice: null,
  modeEcho: /^\[MODE_UPDATE\]/,
};

const QWEN: AcpPresetSpec = {
  cli: '@qwen-code/qwen-code (cli.js)',
  words: { label: 'Qwen Code', cli: '`qwen`', login: '`qwen` (/auth)', key: '`OPENAI_API_KEY`' },
  firstRun: { agentId: 'qwen', name: 'Qwen', command: 'qwen' },
  loginFile: ['.qwen', 'oauth_creds.json'],
  keyVariables: ['OPENAI_API_KEY'],
  async launch({ home, projectRoot, env, model }) {
    const entry = packageFile(projectRoot, '@qwen-code', 'qwen-code', 'cli.js');
    const qwenHome = join(home, '.qwen');
    await writeJson(join(qwenHome, 'settings.json'), {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
      // Tool search hides MCP tools from the model; `auto` is an LLM classifier call per tool call.
      tools: { toolSearch: { enabled: false }, approvalMode: 'default' },
      ui: { enableFollowupSuggestions: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
      permissions: { allow: [send('qwen')] },
    });
    const tmp = join(home, 'tmp');
    await mkdir(tmp, { recursive: true, mode: 0o700 });
    const node = nodeCommand();
    const direct = existsSync(entry);
    return {
      command: direct ? node.command : 'qwen',
      // cli.js directly: cli-entry.js wraps it in a spawnSync.
      entry: direct ? ['--expose-gc', entry] : [],
      args: ['--acp', '--auth-type', 'openai'],
      env: {
        ...node.env,
        HOME: home,
        QWEN_HOME: qwenHome,
        QWEN_CODE_NO_RELAUNCH: 'true',
        // Without it MCP discovery races the first prompt (the tool is missing from it).
        QWEN_CODE_LEGACY_MCP_BLOCKING: '1',
        QWEN_DISABLE_AUTO_TITLE: '1',
        QWEN_USAGE_STATISTICS_ENABLED: 'false',
        // Its per-process socket dirs stay in the agent's home.
        TMPDIR: tmp,
        XDG_RUNTIME_DIR: tmp,
        ...(model === null || env.OPENAI_MODEL !== undefined ? {} : { OPENAI_MODEL: model }),
      },
    };
  },
  policy: (p) => ({ modeId: { ask: 'default', 'read-only': 'plan', 'auto-edit': 'auto-edit', full: 'yolo' }[p] }),
  loadsOnlyAfterCreationMinute: false,
  errorLog: null,
  compactionNotice: /^IMPORTANT: This conversation approached the input token limit/,
  modeEcho: null,
};

const COPILOT_MODE = 'https://agentclientprotocol.com/protocol/session-modes#';

/** Copilot's state dir in the agent's home (`COPILOT_HOME`): config, logs, `session-state/<id>/`. */
const copilotHome = (home: string): string => join(home, '.copilot');

const COPILOT: AcpPresetSpec = {
  cli: '@github/copilot-linux-x64 (copilot)',
  words: {
    label: 'Copilot CLI',
    cli: '`copilot`',
    login: '`copilot login`',
    key: '`COPILOT_GITHUB_TOKEN` (or `OPENAI_API_KEY` with `OPENAI_BASE_URL`)',
  },
  firstRun: { agentId: 'copilot', name: 'Copilot', command: 'copilot' },
  // Its login is in the OS keychain (`copilot login`) or a token in the env: nothing to link.
  loginFile: null,
  keyVariables: ['OPENAI_API_KEY', 'COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
  async launch({ home, sharedCache, projectRoot, env, model }) {
    const native = packageFile(projectRoot, '@github', `copilot-${process.platform}-${process.arch}`, 'copilot');
    await mkdir(copilotHome(home), { recursive: true, mode: 0o700 });
    await mkdir(sharedCache, { recursive: true, mode: 0o700 });
    return {
      command: existsSync(native) ? native : 'copilot',
      entry: [],
      args: ['--acp', '--no-auto-update', '--disable-client-telemetry', `--allow-tool=agentteam(${TOOL_MESSAGE_SEND})`],
      env: {
        HOME: home,
        COPILOT_HOME: copilotHome(home),
        XDG_CACHE_HOME: sharedCache,
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        // BYOK from the agent's OpenAI-style env, as Codex and OpenCode read it.
        ...(env.OPENAI_BASE_URL === undefined
          ? {}
          : { COPILOT_PROVIDER_BASE_URL: env.OPENAI_BASE_URL, COPILOT_PROVIDER_TYPE: 'openai' }),
        ...(env.OPENAI_API_KEY === undefined ? {} : { COPILOT_PROVIDER_API_KEY: env.OPENAI_API_KEY }),
        ...(model === null || env.COPILOT_MODEL !== undefined ? {} : { COPILOT_MODEL: model }),
      },
    };
  },
  policy: (p) =>
    p === 'full'
      ? { modeId: `${COPILOT_MODE}agent`, configOption: { configId: 'allow_all', value: 'on' } }
      : { modeId: `${COPILOT_MODE}${p === 'read-only' ? 'plan' : 'agent'}` },
  loadsOnlyAfterCreationMinute: false,
  errorLog: (home, sessionId) => join(copilotHome(home), 'session-state', sessionId, 'events.jsonl'),
  compactionNotice: null,
  modeEcho: null,
};

/** A custom ACP agent (`command` + `args`): nothing preset, spec-only behaviour. */
export const CUSTOM_ACP: AcpPresetSpec = {
  cli: 'the agent command',
  // An ACP agent of no preset: the program its own "command" names.
  words: {
    label: 'ACP agent',
    cli: 'the ACP agent its "command" names',
    login: "the ACP agent's own sign-in",
    key: 'the provider key that ACP agent reads',
    zh: {
      label: 'ACP 智能体',
      cli: '其 "command" 所指定的 ACP 智能体',
      login: '该 ACP 智能体自己的登录方式',
      key: '该 ACP 智能体读取的服务密钥',
    },
  },
  firstRun: null,
  loginFile: null,
  keyVariables: [],
  launch: () => Promise.reject(new Error('internal: a custom ACP agent launches its own command')),
  policy: () => ({ modeId: null }),
  loadsOnlyAfterCreationMinute: false,
  errorLog: null,
  compactionNotice: null,
  modeEcho: null,
};

export const ACP_PRESET_SPECS: Readonly<Record<AcpPreset, AcpPresetSpec>> = {
  gemini: GEMINI,
  qwen: QWEN,
  copilot: COPILOT,
};

/** issue 39: the words of an ACP agent's preset, or of a custom ACP agent (no preset). */
export function acpWords(preset: AcpPreset | null | undefined): RuntimeWords {
  return preset === null || preset === undefined ? CUSTOM_ACP.words : ACP_PRESET_SPECS[preset].words;
}
