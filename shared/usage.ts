/**
 * issue 27: what an agent consumed and how close it is to its limits, in one vocabulary for the
 * daemon, the API, the CLI and the renderer.
 *
 * Tokens are the runtime's own report, never an estimate, normalised to three disjoint kinds so
 * totals add up whatever the CLI: `input` (prompt tokens not read from the provider's cache,
 * cache writes included), `cached` (prompt tokens read from the cache) and `output` (completion
 * tokens, reasoning included). `costUsd` is null where the CLI reports no cost (Codex).
 *
 * Days are UTC days (`YYYY-MM-DD`): a budget resets at one instant every surface agrees on (the
 * daemon, `agentteam usage` on another machine, the renderer in any time zone); the UI says "UTC".
 */
import { z } from 'zod';
import { RUNTIMES } from './wake-status.js';

export const BUDGET_KINDS = ['tokens', 'cost'] as const;

/** The share of a limit window or budget at which the operator is warned, once (issue 27). */
export const USAGE_WARN_PERCENT = 80;

const Iso = z.string();
const Count = z.number().int().nonnegative();
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day YYYY-MM-DD');

/** One turn's usage as the runtime reported it (normalised, see above). */
export const TurnUsageSchema = z.object({
  inputTokens: Count,
  outputTokens: Count,
  cachedTokens: Count,
  costUsd: z.number().nonnegative().nullable(),
});
export type TurnUsage = z.infer<typeof TurnUsageSchema>;

/** The usage stored for one wake: the sum of the turns that worked on it. */
export const WakeUsageSchema = TurnUsageSchema.extend({
  wakeToken: z.string(),
  agentId: z.string(),
  runtime: z.enum(RUNTIMES),
  turns: Count,
  /** The UTC day of the first turn that reported usage for the wake. */
  day: Day,
  updatedAt: Iso,
});
export type WakeUsage = z.infer<typeof WakeUsageSchema>;

/** One agent's usage over one UTC day (the sum of its wakes' usage of that day). */
export const AgentDayUsageSchema = TurnUsageSchema.extend({
  agentId: z.string(),
  runtime: z.enum(RUNTIMES),
  day: Day,
  wakes: Count,
  turns: Count,
});
export type AgentDayUsage = z.infer<typeof AgentDayUsageSchema>;

/**
 * A rate-limit window the provider announced (Codex `account/rateLimits/updated` primary and
 * secondary; Claude Code's usage-limit message with its reset time). The latest per agent and
 * window is kept. `usedPercent` is null when the provider only said the limit was hit with a reset.
 */
export const LimitWindowSchema = z.object({
  agentId: z.string(),
  runtime: z.enum(RUNTIMES),
  /** `primary` / `secondary` (Codex), `session` (Claude Code's limit message). */
  window: z.string(),
  /** The window's length in minutes when announced (300: the 5-hour window; 10080: weekly). */
  windowMinutes: z.number().int().positive().nullable(),
  usedPercent: z.number().min(0).max(100).nullable(),
  resetsAt: Iso.nullable(),
  observedAt: Iso,
});
export type LimitWindow = z.infer<typeof LimitWindowSchema>;

/** A window as a runtime announces it (the daemon adds the agent and the time it saw it). */
export type AnnouncedLimitWindow = Omit<LimitWindow, 'agentId' | 'observedAt'>;

/** An agent's optional daily budget (`budget` in agentteam.json): tokens (all kinds) and/or cost. */
export const BudgetSchema = z
  .object({
    tokens: z.number().int().positive().optional(),
    costUsd: z.number().positive().optional(),
  })
  .strict()
  .refine((b) => b.tokens !== undefined || b.costUsd !== undefined, 'at least one of "tokens" or "costUsd"');
export type Budget = z.infer<typeof BudgetSchema>;

/**
 * Where an agent stands against its daily budget — the port the pause part reads before a new
 * wake is delivered (`usageBudget(agentId)`). With two limits, the one closest to (or past) its
 * limit is reported. `limit` is null when the agent has no budget (then never reached).
 */
export const UsageBudgetStateSchema = z.object({
  reached: z.boolean(),
  kind: z.enum(BUDGET_KINDS),
  used: z.number().nonnegative(),
  limit: z.number().positive().nullable(),
  /** The next UTC midnight: when today's usage stops counting. */
  resetsAt: Iso,
});
export type UsageBudgetState = z.infer<typeof UsageBudgetStateSchema>;

/** The port: synchronous (the store is node:sqlite), cheap enough to ask before every wake. */
export type UsageBudget = (agentId: string) => UsageBudgetState;

/** The UTC day of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The next UTC midnight after `at`, ISO. */
export function nextUtcMidnight(at: Date): string {
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return next.toISOString();
}

/** The default the pause part injects until usage is wired: never reached. */
export const neverReachedBudget =
  (now: () => Date = () => new Date()): UsageBudget =>
  () => ({ reached: false, kind: 'tokens', used: 0, limit: null, resetsAt: nextUtcMidnight(now()) });

/** All tokens of a usage (what a token budget counts). */
export const totalTokens = (u: TurnUsage): number => u.inputTokens + u.outputTokens + u.cachedTokens;

/** `usage.summary`: the days since `since` (inclusive), the latest limit windows, the budgets' state. */
export const UsageSummarySchema = z.object({
  /** Today's UTC day, so every surface labels the same "today". */
  today: Day,
  days: z.array(AgentDayUsageSchema),
  limits: z.array(LimitWindowSchema),
  budgets: z.array(z.object({ agentId: z.string(), budget: BudgetSchema.nullable(), state: UsageBudgetStateSchema })),
});
export type UsageSummary = z.infer<typeof UsageSummarySchema>;

export const UsageSummaryRequestSchema = z
  .object({
    agentId: z.string().min(1).max(64).optional(),
    since: Day.optional(),
  })
  .strict();
