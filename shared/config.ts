/**
 * The config file `<data-dir>/agentteam.json` (DESIGN.md "Config"), validated by zod.
 * Watchdog and delivery keys and defaults are exactly the watchdog spec's, per channel.
 * Legacy visible-reply toggles are accepted and ignored (contract §7): the contract is always on.
 */
import { z } from 'zod';
import { RUNTIMES } from './wake-status.js';

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
export type PromptLanguage = (typeof PROMPT_LANGUAGES)[number];

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
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().min(1).default('.'),
  model: z.string().min(1).nullable().default(null),
  /** Language of the contract block and reminders in this agent's prompts. */
  language: z.enum(PROMPT_LANGUAGES).default('en'),
  // --- issue 14: workspace and permissions (DESIGN.md "Agent config beyond the first version") ---
  /** What the runtime's own tools may do; mapped onto each CLI's native mechanism (runtime/*-permissions). */
  permissions: z.enum(PERMISSION_POLICIES).default('ask'),
  /** An unanswered approval is answered deny (with a reason the agent sees) after this long. */
  approvalTimeoutSeconds: z.number().int().min(1).max(604_800).default(900),
  /** Operator "always" rules, exactly as shown when allowed (e.g. `Bash(npm test)`); revocable by editing. */
  allow: z.array(z.string().min(1).max(2000)).default([]),
  // --- end issue 14 ---
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
});

export const ConfigSchema = z
  .strictObject({
    agents: z.array(AgentConfigSchema).default([]),
    channels: z.record(z.string().min(1), ChannelSettingsSchema).default({}),
    limits: DaemonLimitsSchema.default(DaemonLimitsSchema.parse({})),
    visibleReplyContract: LegacyVisibleReplyContract.optional(),
    visible_reply_contract_enabled: z.unknown().optional(),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.agents.forEach((agent, i) => {
      if (seen.has(agent.id))
        ctx.addIssue({ code: 'custom', path: ['agents', i, 'id'], message: `duplicate agent id "${agent.id}"` });
      seen.add(agent.id);
    });
  });
export type Config = z.infer<typeof ConfigSchema>;

/** The name of the local conversation channel in `channels`. */
export const LOCAL_CHANNEL = 'local';

/** Effective settings of a channel: its entry, else the defaults. */
export function channelSettings(config: Config, channel: string): ChannelSettings {
  return config.channels[channel] ?? ChannelSettingsSchema.parse({});
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
