/**
 * The config file `<data-dir>/agentteam.json` (DESIGN.md "Config"), validated by zod.
 * Watchdog and delivery keys and defaults are exactly the watchdog spec's, per channel.
 * Legacy visible-reply toggles are accepted and ignored (contract §7): the contract is always on.
 */
import { z } from 'zod';
import { BudgetSchema } from './usage.js';
import { AUTH_MODES } from './agent-readiness.js';
import { parseTarget } from './target.js';
import { hostAgentIssues } from './agent-host.js';
import { ON_USAGE_LIMIT, RUNTIMES } from './wake-status.js';

export const SilenceWatchdogSchema = z.strictObject({
  enabled: z.boolean().default(true),
  thresholdSeconds: z.number().positive().max(86_400).default(45),
  maxBeacons: z.number().int().min(0).max(100).default(5),
  message: z.string().min(1).max(500).default('🧠 Working…'),
  escalationMessage: z
    .string()
    .min(1)
    .max(500)
    .default('⚠️ Extended processing — still working. Response may be delayed.'),
  /** Operator-visible streaming output resets the timer. */
  resetOnStreaming: z.boolean().default(true),
  /** A typing indicator alone does not reset the timer. */
  resetOnTypingOnly: z.boolean().default(false),
});

export const ResponseDeliverySchema = z.strictObject({
  enabled: z.boolean().default(true),
  retryCount: z.number().int().min(0).max(10).default(1),
  retryDelayMs: z.number().int().min(0).max(600_000).default(3000),
  alertOnFailure: z.boolean().default(true),
  alertOnNoResponse: z.boolean().default(true),
  preserveUndelivered: z.boolean().default(true),
});

export const ChannelSettingsSchema = z.strictObject({
  silenceWatchdog: SilenceWatchdogSchema.default(SilenceWatchdogSchema.parse({})),
  responseDelivery: ResponseDeliverySchema.default(ResponseDeliverySchema.parse({})),
});
export type SilenceWatchdogConfig = z.infer<typeof SilenceWatchdogSchema>;
export type ResponseDeliveryConfig = z.infer<typeof ResponseDeliverySchema>;
export type ChannelSettings = z.infer<typeof ChannelSettingsSchema>;

/**
 * Legacy toggle (contract §7): accepted in any old shape (`{ "enabled": false }`, a bare boolean…),
 * never has an effect; the loader logs it once.
 */
const LegacyVisibleReplyContract = z.unknown();

export const PROMPT_LANGUAGES = ['en', 'zh-CN'] as const;

/** An agent's permission policy (issue 14): `ask` routes what the CLI would ask a person to the operator. */
export const PERMISSION_POLICIES = ['ask', 'read-only', 'auto-edit', 'full'] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];
/** The policy of an agent whose config names none. */
export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = 'ask';
export type PromptLanguage = (typeof PROMPT_LANGUAGES)[number];
/** issue 14: the agent-tools surface an agent's prompt names (prompt/tool-names.ts `SendSurfaceKind`). */
export const AGENT_TOOLS_SURFACES = ['mcp', 'cli'] as const;

/** issue 26: where an agent works — in `cwd` itself, or in a git worktree of its own. */
export const ISOLATION_MODES = ['none', 'worktree'] as const;
export type Isolation = (typeof ISOLATION_MODES)[number];

/** An agent that names no `cwd` works in its own `<data-dir>/workspaces/<id>` (main/daemon/runtime/workspace.ts). */
export const DEFAULT_AGENT_CWD = '.';

/**
 * issue 28: the ACP agents the daemon knows how to launch, isolate and keep offline
 * (main/daemon/runtime/acp/acp-presets.ts; research/acp.md). `runtime: "acp"` with a preset
 * needs nothing else; without one, `command` names any ACP agent.
 */
export const ACP_PRESETS = ['gemini', 'qwen', 'copilot'] as const;
export type AcpPreset = (typeof ACP_PRESETS)[number];

/**
 * issue 42 "Sleep and wake": an agent idle this long has its CLI process stopped cleanly; the next
 * delivery starts it again in the same session. 0 = never. At most a week.
 */
const IdleSleepSeconds = z
  .number({ error: '"idleSleepSeconds" must be a number of seconds (0 = never put the agent to sleep)' })
  .int({ error: '"idleSleepSeconds" must be a whole number of seconds (0 = never put the agent to sleep)' })
  .min(0, { error: '"idleSleepSeconds" cannot be negative (0 = never put the agent to sleep)' })
  .max(604_800, { error: '"idleSleepSeconds" is at most 604800 (a week); 0 = never put the agent to sleep' });

/** issue 42: an agent's own `resources` (overrides the daemon's `resources.idleSleepSeconds`). */
const AgentResourcesSchema = z.strictObject({ idleSleepSeconds: IdleSleepSeconds.optional() });

/** issue 42: what agents may cost at rest: when an idle one sleeps, and the free memory a new process needs. */
export const ResourcesSchema = z.strictObject({
  idleSleepSeconds: IdleSleepSeconds.default(900),
  /** Below this much free memory (MemAvailable) no new agent process starts (issue 42 "memory-aware admission"). */
  minFreeMemoryMB: z
    .number({ error: '"minFreeMemoryMB" must be a number of megabytes (0 = never hold a start for memory)' })
    .int({ error: '"minFreeMemoryMB" must be a whole number of megabytes' })
    .min(0, { error: '"minFreeMemoryMB" cannot be negative (0 = never hold a start for memory)' })
    .max(1_048_576, { error: '"minFreeMemoryMB" is at most 1048576 (1 TB)' })
    .default(1024),
  /**
   * How many agent processes may start at once (resources/start-admission.ts); a sleeping agent's
   * wake beyond them waits `waiting_for_start`. Absent: the machine's CPU cores (at least 2); 0: no limit.
   */
  startsAtOnce: z
    .number({ error: '"startsAtOnce" must be a number of agent processes (0 = no limit)' })
    .int({ error: '"startsAtOnce" must be a whole number of agent processes' })
    .min(0, { error: '"startsAtOnce" cannot be negative (0 = no limit)' })
    .max(256, { error: '"startsAtOnce" is at most 256' })
    .optional(),
});

export const AgentConfigSchema = z.strictObject({
  /** Stable id: the member name in targets (`dm:@id`) and mentions (`@id`). */
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{0,63}$/,
      'lower-case letters, digits, ".", "-" or "_" (1–64), starting with a letter or digit',
    ),
  name: z.string().min(1).max(80),
  runtime: z.enum(RUNTIMES),
  /** The runtime CLI; null means the one this project installs (or `claude`/`codex`/`opencode` on PATH). */
  command: z.string().min(1).nullable().default(null),
  args: z.array(z.string()).default([]),
  /** issue 28: with `runtime: "acp"`, the known ACP agent (flags, env, home, offline settings); see ACP_PRESETS. */
  preset: z.enum(ACP_PRESETS).optional(),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().min(1).default(DEFAULT_AGENT_CWD),
  /**
   * issue 43: `"ssh://user@host[:port]"` runs the agent's CLI on that host through OpenSSH (shared/agent-host.ts);
   * absent, on this machine. With it, `command` and `cwd` are paths on that host.
   */
  host: z.string().min(1).max(300).optional(),
  // --- issue 26: isolation in a git worktree of the agent's own (worktrees/worktree-service.ts) ---
  /** `worktree`: the agent works in `<worktreesDir>/<agent id>` on branch `agentteam/<agent id>`, never in `cwd`'s checkout. */
  isolation: z.enum(ISOLATION_MODES).default('none'),
  /** The branch the worktree is made from and merges into; null: the branch checked out in `cwd` at the first start. */
  baseBranch: z
    .string()
    .min(1)
    .max(200)
    .regex(/^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)[^\s~^:?*[\\]+$/, 'a git branch name')
    .nullable()
    .default(null),
  /** Where the agent's worktree folder is made (an absolute path); null: the app's own folder beside the data dir. */
  worktreesDir: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), 'an absolute path')
    .nullable()
    .default(null),
  // --- end issue 26 ---
  model: z.string().min(1).nullable().default(null),
  /** Language of the contract block and reminders in this agent's prompts. */
  language: z.enum(PROMPT_LANGUAGES).default('en'),
  /** issue 15: `cli-login` reuses the person's existing CLI sign-in (credential material only); `env` uses only keys in `env`. */
  auth: z.enum(AUTH_MODES).default('cli-login'),
  // --- issue 14: workspace and permissions (DESIGN.md "Agent config beyond the first version") ---
  /** What the runtime's own tools may do; mapped onto each CLI's native mechanism (runtime/*-permissions). */
  permissions: z.enum(PERMISSION_POLICIES).default(DEFAULT_PERMISSION_POLICY),
  /** An unanswered approval is answered deny (with a reason the agent sees) after this long. */
  approvalTimeoutSeconds: z.number().int().min(1).max(604_800).default(900),
  /** Operator "always" rules, exactly as shown when allowed (e.g. `Bash(npm test)`); revocable by editing. */
  allow: z.array(z.string().min(1).max(2000)).default([]),
  /**
   * How the prompt tells the agent to reply (contract §8.2/§11): `mcp` names the runtime's MCP tool
   * `message_send`; `cli` names the shell command `agentteam agent send` (on the runtime's PATH).
   */
  agentTools: z.enum(AGENT_TOOLS_SURFACES).default('mcp'),
  // --- end issue 14 ---
  /**
   * issue 29 "Turns end": a turn still running after this many minutes is interrupted through
   * the runtime's own interrupt, and its wakes end `failed` with `turn_timeout` (at most a week).
   */
  turnTimeoutMinutes: z.number().int().min(1).max(10_080).default(120),
  // --- issue 27 ---
  /**
   * A turn refused by a usage or rate limit: `wait` pauses the wake and delivers it again once at
   * the limit's reset; `fail` ends it `failed/provider_rate_limited` (the behaviour before issue 27).
   */
  onUsageLimit: z.enum(ON_USAGE_LIMIT).default('wait'),
  /**
   * The first probe's wait when neither the CLI's limit signal nor a `retry-after` names the reset
   * (seconds, at most a day); issue 40 item 8: doubled for each further such limit (1, 2, 4, 8…
   * minutes), capped at 30 minutes, from the first step again once the provider takes a turn.
   */
  usageLimitBackoffSeconds: z.number().int().min(1).max(86_400).default(60),
  // --- end issue 27 ---
  /**
   * issue 27: an optional daily (UTC) budget, tokens of every kind and/or cost in USD; warned at 80 %.
   * Reached: new wakes wait `paused / daily_budget`; issue 41: a turn running when its usage reaches
   * it is interrupted, its wakes end `failed / budget_reached` (usage/budget-guard.ts).
   */
  budget: BudgetSchema.optional(),
  /** issue 42: this agent's own `idleSleepSeconds` (else the daemon's `resources.idleSleepSeconds`). */
  resources: AgentResourcesSchema.optional(),
  visibleReplyContract: LegacyVisibleReplyContract.optional(),
  visible_reply_contract_enabled: z.unknown().optional(),
});
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

export const DaemonLimitsSchema = z.strictObject({
  /** Rows a runtime process may hold in its pending-delivery FIFO; later wakes wait durably. */
  pendingCapacity: z.number().int().min(1).max(10_000).default(64),
  /** Largest message content accepted from the operator or an agent, in UTF-8 bytes. */
  maxMessageBytes: z.number().int().min(1).max(1_048_576).default(32_768),
  /** message_send calls one agent may make per minute. */
  sendsPerMinute: z.number().int().min(1).max(10_000).default(60),
  /** issue 29: conversations one agent may start per hour (a send to a target that does not exist yet). */
  conversationsPerHour: z.number().int().min(1).max(10_000).default(30),
  /**
   * issue 25: agent-caused wakes (an agent's mention of another agent, hand-backs included) one
   * chain may cause before it pauses for the operator's Continue (each Continue grants this many more).
   */
  agentHops: z.number().int().min(1).max(1000).default(6),
});
/**
 * The limits of a config that names none: the one home of their defaults (issue 39). A service
 * given no limit reads it here, never restates the number.
 */
export const DEFAULT_DAEMON_LIMITS = DaemonLimitsSchema.parse({});

/** The conversation every data dir has from its first start, and the one the app opens on (issue 39: one home). */
export const GENERAL_CONVERSATION = '#general';

// ---- Telegram channel (issue 18; DESIGN.md "Telegram channel") ----------------------------------

/** The config key of the Telegram channel in `channels`. */
export const TELEGRAM_CHANNEL = 'telegram';

/** A Telegram chat id (a user, group or supergroup id; negative for groups). */
const TelegramChatId = z
  .number()
  .int()
  .refine((n) => n !== 0, 'a Telegram chat id (not 0)');

/** One conversation bound to one chat; only `allowFrom` user ids may post into it from the chat. */
export const TelegramBindingSchema = z.strictObject({
  chatId: TelegramChatId,
  /** A conversation target, e.g. `#general` or `dm:@claude`. */
  target: z
    .string()
    .min(1)
    .max(200)
    .superRefine((text, ctx) => {
      const parsed = parseTarget(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
    }),
  allowFrom: z.array(z.number().int().positive()).max(1000).default([]),
});
export type TelegramBinding = z.infer<typeof TelegramBindingSchema>;

export const TelegramChannelSchema = ChannelSettingsSchema.extend({
  /**
   * The bot token itself (keep agentteam.json 0600 then); prefer `botTokenEnv`. Never logged: no
   * length or format rule, so no config error can quote part of it.
   */
  botToken: z.string().min(1).optional(),
  /** The name of an environment variable of the daemon holding the bot token. */
  botTokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
  /** Bot API root without a trailing slash (a local Bot API server, or a test server). */
  apiRoot: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !u.endsWith('/'), 'no trailing "/"')
    .default('https://api.telegram.org'),
  bindings: z.array(TelegramBindingSchema).max(100).default([]),
});
export type TelegramChannelConfig = z.infer<typeof TelegramChannelSchema>;

/** `channels`: `telegram` has its own shape; every other key is a channel's watchdog + delivery settings. */
const ChannelsSchema = z
  .object({ [TELEGRAM_CHANNEL]: TelegramChannelSchema.optional() })
  .catchall(ChannelSettingsSchema);

/** Chat ids and targets of bindings are each bound once: a message maps to one conversation and back. */
export function duplicateBindings(
  bindings: readonly Pick<TelegramBinding, 'chatId' | 'target'>[],
): { index: number; field: 'chatId' | 'target'; message: string }[] {
  const chats = new Set<number>();
  const targets = new Set<string>();
  const out: { index: number; field: 'chatId' | 'target'; message: string }[] = [];
  bindings.forEach((b, index) => {
    if (chats.has(b.chatId)) out.push({ index, field: 'chatId', message: `chat ${b.chatId} is bound twice` });
    if (targets.has(b.target)) out.push({ index, field: 'target', message: `target "${b.target}" is bound twice` });
    chats.add(b.chatId);
    targets.add(b.target);
  });
  return out;
}

export const ConfigSchema = z
  .strictObject({
    agents: z.array(AgentConfigSchema).default([]),
    channels: ChannelsSchema.default({}),
    limits: DaemonLimitsSchema.default(DEFAULT_DAEMON_LIMITS),
    resources: ResourcesSchema.default(ResourcesSchema.parse({})),
    visibleReplyContract: LegacyVisibleReplyContract.optional(),
    visible_reply_contract_enabled: z.unknown().optional(),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.agents.forEach((agent, i) => {
      if (seen.has(agent.id))
        ctx.addIssue({ code: 'custom', path: ['agents', i, 'id'], message: `duplicate agent id "${agent.id}"` });
      seen.add(agent.id);
      for (const issue of [...acpAgentIssues(agent), ...hostAgentIssues(agent)])
        ctx.addIssue({ code: 'custom', path: ['agents', i, ...issue.path], message: issue.message });
    });
    for (const d of duplicateBindings(config.channels[TELEGRAM_CHANNEL]?.bindings ?? []))
      ctx.addIssue({
        code: 'custom',
        path: ['channels', TELEGRAM_CHANNEL, 'bindings', d.index, d.field],
        message: d.message,
      });
  });
export type Config = z.infer<typeof ConfigSchema>;

/**
 * issue 28: an ACP agent names a preset or the agent's own command; a preset belongs to
 * `runtime: "acp"` only. Each issue names the field and the fix.
 */
export function acpAgentIssues(
  agent: Pick<AgentConfig, 'runtime' | 'preset' | 'command'>,
): { readonly path: string[]; readonly message: string }[] {
  if (agent.runtime !== 'acp')
    return agent.preset === undefined
      ? []
      : [
          {
            path: ['preset'],
            message: `"preset" is only for "runtime": "acp" (this agent's runtime is "${agent.runtime}")`,
          },
        ];
  if (agent.preset === undefined && agent.command === null)
    return [
      {
        path: ['command'],
        message: `an "acp" agent needs "preset" (one of ${ACP_PRESETS.join(', ')}) or "command" naming an ACP agent (e.g. "goose" with "args": ["acp"])`,
      },
    ];
  return [];
}

/** The name of the local conversation channel in `channels`. */
export const LOCAL_CHANNEL = 'local';

/** Effective settings of a channel: its entry, else the defaults. */
export function channelSettings(config: Config, channel: string): ChannelSettings {
  const entry = config.channels[channel];
  // Only the watchdog + delivery keys: a channel's own keys (a bot token) never travel with its settings.
  return entry === undefined
    ? ChannelSettingsSchema.parse({})
    : { silenceWatchdog: entry.silenceWatchdog, responseDelivery: entry.responseDelivery };
}

/**
 * An agent entry as it takes effect: without its legacy visible-reply toggles, which are read and
 * never applied (§7.3; issue 24). Comparing the file
 * with what runs uses this, so editing a toggle that changes nothing never reads "restart to
 * apply" (§7.3: no hint of a switch).
 */
export function effectiveAgent(
  agent: AgentConfig,
): Omit<AgentConfig, 'visibleReplyContract' | 'visible_reply_contract_enabled'> {
  const { visibleReplyContract: _v, visible_reply_contract_enabled: _e, ...effective } = agent;
  return effective;
}

/** JSON paths of legacy visible-reply toggles present in a config (logged once, never applied). */
export function legacyToggles(config: Config): string[] {
  const paths: string[] = [];
  if (config.visibleReplyContract !== undefined) paths.push('visibleReplyContract');
  if (config.visible_reply_contract_enabled !== undefined) paths.push('visible_reply_contract_enabled');
  config.agents.forEach((a, i) => {
    if (a.visibleReplyContract !== undefined) paths.push(`agents[${i}].visibleReplyContract`);
    if (a.visible_reply_contract_enabled !== undefined) paths.push(`agents[${i}].visible_reply_contract_enabled`);
  });
  return paths;
}
