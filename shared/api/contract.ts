/**
 * The one API contract between the renderer and the daemon (STYLE.md habit 2). Two transports
 * carry it unchanged: Electron IPC (preload exposes one named method per call) and the
 * WebSocket bridge of `agentteam serve`. Channel names are `agentteam:<domain>.<verb>`.
 */
import { z } from 'zod';
import { AUTH_MODES, READINESS_STATES } from '../agent-readiness.js';
import { APPROVAL_DECISIONS, APPROVAL_KINDS, APPROVAL_SCOPES, APPROVAL_STATUSES } from '../approvals.js';
import { CHANGE_STATUSES, PATCH_OMISSIONS, WAKE_CHANGE_STATES } from '../changes.js';
import {
  ACP_PRESETS,
  AgentConfigSchema,
  ChannelSettingsSchema,
  DaemonLimitsSchema,
  PERMISSION_POLICIES,
  PROMPT_LANGUAGES,
} from '../config.js';
import { RUNTIMES, WAKE_STATUSES } from '../wake-status.js';
import { BudgetSchema, UsageSummaryRequestSchema, UsageSummarySchema, WakeUsageSchema } from '../usage.js';
import type { ApiCallName, ApiEventName } from './api-names.js';

export { channelOf, isApiCallName, splitCallName, type ApiCallName, type ApiEventName } from './api-names.js';

/** The contract's vocabularies, one definition each; the store and the wake lifecycle use these types. */
export const CONVERSATION_KINDS = ['channel', 'dm', 'thread'] as const;
export const AUTHOR_KINDS = ['operator', 'agent'] as const;
/**
 * `compaction` (issue 24): the runtime compacted its context while working on the wake, and went on.
 * `wake_up` (issue 42): the agent was asleep; its runtime was started again (same session) for the
 * wake, its detail `woke the agent (2.1 s)` (WOKE_DETAIL).
 */
export const WAKE_EVENT_KINDS = [
  'status',
  'beacon',
  'escalation',
  'final_check',
  'delivery',
  'alert',
  'compaction',
  'wake_up',
] as const;
/** issue 42: a `wake_up` entry's detail: how long the sleeping agent's runtime took to be ready again. */
export const wokeDetail = (ms: number): string => `woke the agent (${(ms / 1000).toFixed(1)} s)`;
/** issue 38: a `compaction` entry's detail when the compaction followed a context overflow. */
export const COMPACTED_AFTER_OVERFLOW = 'context compacted after an overflow';
/** issue 38: how an `alert` entry's detail starts when an overflow went to a fresh session instead (why follows). */
export const OVERFLOW_RENEWAL_PREFIX = 'context overflowed';
/** contract §8.4: what a `prompt_input` entry records. */
export const PROMPT_INPUT_KINDS = ['turn_context', 'delivery', 'final_check', 'recovery', 'continuation'] as const;
/** contract §8.3: what the audit records (issue 24 shows it). */
export const AUDIT_KINDS = ['cross_target_send'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];
export type AuthorKind = (typeof AUTHOR_KINDS)[number];
export type WakeEventKind = (typeof WAKE_EVENT_KINDS)[number];
export type PromptInputKind = (typeof PROMPT_INPUT_KINDS)[number];
export type AuditKind = (typeof AUDIT_KINDS)[number];
// --- issue 25: agent teams ---
/**
 * What caused a wake: the operator's message, another agent's mention (`agent_mention`), the
 * hand-back of an asked agent's reply to the agent that asked (`hand_back`, contract §9.1 workflow
 * callback, `signal_only`), or a recovery continuation (§6.6). `agent_mention` and `hand_back`
 * are agent-caused: each takes one hop of its chain's budget.
 */
export const WAKE_CAUSES = ['operator', 'agent_mention', 'hand_back', 'recovery'] as const;
/** A chain is `open` (agents may wake agents) or `paused` (its hop budget is spent; the operator's Continue grants more). */
export const CHAIN_STATUSES = ['open', 'paused'] as const;
/** The Team board's state of one agent (issue 25). */
export const TEAM_AGENT_STATES = ['working', 'waiting_approval', 'failed', 'needs_sign_in', 'idle'] as const;
export type WakeCause = (typeof WAKE_CAUSES)[number];
export type ChainStatus = (typeof CHAIN_STATUSES)[number];
export type TeamAgentState = (typeof TEAM_AGENT_STATES)[number];

const TargetText = z.string().min(1).max(200);
const Iso = z.string();

const ConversationSchema = z.object({
  target: z.string(),
  kind: z.enum(CONVERSATION_KINDS),
  title: z.string(),
  /** The parent conversation of a thread, else null. */
  parent: z.string().nullable(),
  lastSeq: z.number().int(),
});

const MessageSchema = z.object({
  id: z.string(),
  target: z.string(),
  seq: z.number().int(),
  authorId: z.string(),
  authorName: z.string(),
  authorKind: z.enum(AUTHOR_KINDS),
  content: z.string(),
  createdAt: Iso,
  responseId: z.string().nullable(),
  /** A reply re-delivered after its first delivery failed (watchdog spec B: preserveUndelivered). */
  redelivered: z.boolean(),
  /** Confirmed reactions (contract §9.2: a reaction to the triggering message is a visible reply). */
  reactions: z.array(z.object({ emoji: z.string(), authorId: z.string(), authorName: z.string() })).default([]),
  // --- issue 25 (optional so older producers and doubles stay valid; the daemon always sends them) ---
  /** The chain the message belongs to: an operator message starts its own (its id); an agent's, the chain it works in. */
  chainId: z.string().nullable().optional(),
  /** An agent's message: the other agents it addressed (`@id`), woken or not (a paused chain wakes no one). */
  addressed: z.array(z.object({ agentId: z.string(), name: z.string() })).optional(),
});

/**
 * A thread under a parent conversation (issue 17): its target, the message it was started from
 * (null when the thread was not started from a message, e.g. a target typed by hand), and its
 * reply count.
 */
const ThreadSummarySchema = z.object({
  target: z.string(),
  parent: z.string(),
  root: MessageSchema.nullable(),
  replyCount: z.number().int().nonnegative(),
  lastReplyAt: Iso.nullable(),
});

/** issue 17: one search hit, newest first; the snippet is plain text split into matched and other parts. */
const SearchResultSchema = z.object({
  target: z.string(),
  messageId: z.string(),
  seq: z.number().int(),
  authorId: z.string(),
  authorName: z.string(),
  authorKind: z.enum(AUTHOR_KINDS),
  createdAt: Iso,
  snippet: z.array(z.object({ text: z.string(), match: z.boolean() })),
});

const WakeSchema = z.object({
  wakeToken: z.string(),
  messageId: z.string(),
  agentId: z.string(),
  /** The agent's display name (contract §10.1: as resolved when the wake was accepted). */
  agentName: z.string(),
  /** contract §10.1: the agent's public technical name (what mentions and `dm:@` use), as resolved then. */
  agentTechnicalName: z.string(),
  runtime: z.enum(RUNTIMES),
  /** contract §10.1: the model of the runtime context, null when the agent's config sets none. */
  model: z.string().nullable(),
  target: z.string(),
  status: z.enum(WAKE_STATUSES),
  reason: z.string().nullable(),
  /** Bounded failure detail, shown only when the person expands it. Never runtime text. */
  detail: z.string().nullable(),
  beacons: z.number().int(),
  escalated: z.boolean(),
  lastBeaconAt: Iso.nullable(),
  finalCheck: z.boolean(),
  createdAt: Iso,
  endedAt: Iso.nullable(),
  /** contract §6.6 (issue 16): recovery continuations that re-delivered this wake's input (at most one). */
  recoveries: z.number().int().default(0),
  // --- issue 25: the chain the wake belongs to (optional so older producers and doubles stay valid; the daemon always sends them) ---
  /** The operator message that started the chain (null: a wake stored before chains existed). */
  chainId: z.string().nullable().optional(),
  cause: z.enum(WAKE_CAUSES).optional(),
  /** The chain's agent-caused wakes counted when this one was accepted, this one included (0: operator or recovery wake). */
  hop: z.number().int().nonnegative().optional(),
  /** The chain's hop budget then (`limits.agentHops` × (1 + Continues)). */
  hopBudget: z.number().int().nonnegative().optional(),
  /** The agent whose message caused this wake (a mention, or the reply handed back), else null. */
  askedById: z.string().nullable().optional(),
  /** That agent's display name. */
  askedByName: z.string().nullable().optional(),
  /**
   * issue 27: while `paused`, when the pause ends (the limit's reset, the budget's next UTC day);
   * null when unknown or not paused. Optional so older producers and doubles stay valid.
   */
  pausedUntil: Iso.nullable().optional(),
});

/**
 * issue 25: a chain — the operator message that started it and every wake that followed from it.
 * At `hops === budget` further agent-caused wakes are withheld and the chain is `paused` until the
 * operator's Continue (`chains.continue`) grants another `limits.agentHops`.
 */
const ChainSchema = z.object({
  /** The id of the operator message that started it. */
  chainId: z.string(),
  /** The conversation of that message. */
  target: z.string(),
  status: z.enum(CHAIN_STATUSES),
  /** Agent-caused wakes so far (mentions and hand-backs). */
  hops: z.number().int().nonnegative(),
  budget: z.number().int().nonnegative(),
  /** Continues granted so far. */
  continues: z.number().int().nonnegative(),
  /** The first agent message whose wakes were withheld (Continue routes it), null while open. */
  heldMessageId: z.string().nullable(),
  /** Agents that message addressed (what Continue wakes). */
  heldFor: z.array(z.object({ agentId: z.string(), name: z.string() })),
  startedAt: Iso,
  pausedAt: Iso.nullable(),
  updatedAt: Iso,
});

/**
 * issue 25: one agent on the Team board, from the roster, session, approval and readiness state
 * (no second source of truth). `working` names the conversation of its oldest wake being handled.
 */
const TeamAgentSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  runtime: z.enum(RUNTIMES),
  state: z.enum(TEAM_AGENT_STATES),
  /** `working`: the conversation it works on; `waiting_approval`: the one whose turn asked (when known). */
  target: z.string().nullable(),
  /** That conversation's title. */
  title: z.string().nullable(),
  /** `working` / `waiting_approval`: since when. */
  since: Iso.nullable(),
  /** `working`: the wake being handled. */
  wakeToken: z.string().nullable(),
  /** `waiting_approval`: the pending approval. */
  approvalId: z.string().nullable(),
  /** `failed` / `needs_sign_in`: the failure vocabulary's reason (`auth_required`, `cli_missing`, …). */
  reason: z.string().nullable(),
  /** Whether the agent can take work now (readiness). */
  ready: z.boolean(),
});

const WakeEventSchema = z.object({
  wakeToken: z.string(),
  kind: z.enum(WAKE_EVENT_KINDS),
  status: z.enum(WAKE_STATUSES).nullable(),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  at: Iso,
});

/**
 * contract §8.3 (issue 24): one audited send — today only an explicit cross-target send
 * (`allow_cross_target`) — with the wakes the agent was handling when it sent.
 */
const AuditRecordSchema = z.object({
  id: z.number().int(),
  agentId: z.string(),
  /** The agent's display name now. */
  agentName: z.string(),
  kind: z.enum(AUDIT_KINDS),
  /** Where the message went. */
  target: z.string(),
  messageId: z.string(),
  wakeTokens: z.array(z.string()),
  at: Iso,
});

const PromptInputSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  agentId: z.string(),
  wakeTokens: z.array(z.string()),
  kind: z.enum(PROMPT_INPUT_KINDS),
  text: z.string(),
  at: Iso,
});

/** issue 15: whether the agent can take work, checked without a model call (CLI found, signed in or a key). */
const AgentReadinessSchema = z.object({
  state: z.enum(READINESS_STATES),
  ready: z.boolean(),
  /** Why not ready, from the failure vocabulary (`auth_required`, `cli_missing`, `cli_exited`), else null. */
  reason: z.string().nullable(),
  cliVersion: z.string().nullable(),
  /** A short credential-free note (e.g. the sign-in method). */
  detail: z.string().nullable(),
  restart: z.object({ attempt: z.number().int(), cap: z.number().int() }).nullable(),
  checkedAt: Iso.nullable(),
});

/** issue 39: a runtime's words for people (shared/agent-readiness.ts `RuntimeWords`), as its descriptor says them. */
const RuntimeWordsFields = { label: z.string(), cli: z.string(), login: z.string(), key: z.string() };
const RuntimeWordsSchema = z.object({ ...RuntimeWordsFields, zh: z.object(RuntimeWordsFields).partial().optional() });

/**
 * issue 39 "Plug-ins": a coding CLI a first run would seed when found on PATH (a runtime
 * descriptor's `firstRun.offered`): the empty welcome names these, so the page names no runtime.
 */
const InstallableRuntimeSchema = z.object({ command: z.string(), words: RuntimeWordsSchema });

const AgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  runtime: z.enum(RUNTIMES),
  model: z.string().nullable(),
  /** issue 42: `sleeping`: idle long enough that its CLI process was stopped; the next delivery wakes it. */
  state: z.enum(['starting', 'idle', 'busy', 'sleeping', 'stopped', 'crashed']),
  demo: z.boolean(),
  /** issue 28: an `acp` agent's preset (its CLI's own name, sign-in and keys in the readiness fix); else null. */
  preset: z.enum(ACP_PRESETS).nullable().optional(),
  /** issue 39: what its runtime is called and how it is signed in, as the runtime's descriptor says (the page words nothing itself). */
  runtimeWords: RuntimeWordsSchema,
  /** issue 15 (optional so older producers still parse). */
  readiness: AgentReadinessSchema.optional(),
  /** The agent's workspace: its resolved absolute `cwd` (issue 14 validates it at start). */
  cwd: z.string().optional(),
  auth: z.enum(AUTH_MODES).optional(),
  // --- issue 14 ---
  // Optional so older doubles of the contract stay valid; the daemon always sends them.
  /** The agent's permission policy (config key, default `ask`). */
  permissions: z.enum(PERMISSION_POLICIES).optional(),
  /** The operator's "always" rules, exactly as shown when allowed (e.g. `Bash(npm test)`): the daemon's grants (issue 29). */
  allow: z.array(z.string()).optional(),
  /** issue 29: rules agentteam.json lists that the daemon never granted: "needs your confirmation", not applied. */
  unconfirmedAllow: z.array(z.string()).optional(),
  // --- issue 26: the worktree of an agent with `"isolation": "worktree"` (null until it is made) ---
  isolation: z.enum(['none', 'worktree']).optional(),
  /** The `baseBranch` agentteam.json names (null: the branch checked out in `cwd` at the first start). */
  baseBranch: z.string().nullable().optional(),
  worktree: z
    .object({ path: z.string(), branch: z.string(), base: z.string(), repoRoot: z.string() })
    .nullable()
    .optional(),
  // --- end issue 26 ---
  /** issue 27: the agent's daily budget from agentteam.json, null when it has none. */
  budget: BudgetSchema.nullable().optional(),
  /**
   * issue 42 "What each agent costs": the resident memory (bytes) and CPU (% of one core between
   * the last two samples) of the agent's whole process tree; 0 while it sleeps; null where the
   * platform cannot tell (or before a second sample, for the CPU).
   */
  rssBytes: z.number().nullable().optional(),
  cpuPercent: z.number().nullable().optional(),
});

/** issue 26: what an isolated agent's worktree holds beyond its base (the discard confirmation names it). */
const WorktreeChangesSchema = z.object({
  worktree: z.object({ path: z.string(), branch: z.string(), base: z.string(), repoRoot: z.string() }),
  uncommitted: z.array(z.object({ path: z.string(), status: z.string() })),
  commits: z.array(z.string()),
});
const WorktreeMergeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('merged'),
    how: z.enum(['fast-forward', 'merge-commit', 'up-to-date']),
    commit: z.string(),
    committed: z.boolean(),
  }),
  z.object({ kind: z.literal('conflict'), files: z.array(z.string()), message: z.string() }),
  z.object({ kind: z.literal('refused'), message: z.string() }),
]);

/** issue 14: a runtime's permission question, asked of the operator (shared/approvals.ts). */
const ApprovalSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  runtime: z.string(),
  /** The wakes of the turn that asked (the chip shows on them). */
  wakeTokens: z.array(z.string()),
  kind: z.enum(APPROVAL_KINDS),
  tool: z.string(),
  /** One line: the command line, or the file path with added/removed line counts. */
  summary: z.string(),
  /** The full command or diff: shown escaped, never rendered as HTML. */
  detail: z.string(),
  /** What "always" records in the agent's `allow` list; null: no exact rule, only "once" is offered (issue 29). */
  rule: z.string().nullable(),
  status: z.enum(APPROVAL_STATUSES),
  scope: z.enum(APPROVAL_SCOPES).nullable(),
  /** A deny's reason, as the agent reads it. */
  reason: z.string().nullable(),
  createdAt: Iso,
  expiresAt: Iso,
  answeredAt: Iso.nullable(),
});

const AlertSchema = z.object({
  id: z.string(),
  /** issue 27: `usage_warning` — an agent at 80 % of a provider's limit window or of its daily budget. */
  kind: z.enum([
    'delivery_failed',
    'delivery_uncertain',
    'escalation',
    'no_response',
    'runtime_crashed',
    'usage_warning',
  ]),
  target: z.string().nullable(),
  wakeToken: z.string().nullable(),
  responseId: z.string().nullable(),
  /** Neutral status copy; never written as the agent. */
  message: z.string(),
  /** issue 24: the display name of the agent it is about (an OS notification names it); absent when none. */
  agentName: z.string().optional(),
  /**
   * issue 40 item 7: a delivery alert's channel (`local`, `telegram`, …): a failure names where the
   * reply did not arrive ("Not delivered to Telegram"). Absent on other alerts and from older producers.
   */
  channel: z.string().optional(),
  at: Iso,
});

// issue 17: agentteam.json is the one source of channel settings; the UI shows where each value
// comes from, the last unusable edit of the file, and what applies only after a restart.
/** Where a channel setting in effect comes from: the person's agentteam.json, or the schema default. */
export const SETTING_ORIGINS = ['file', 'default'] as const;

const ConfigProblemSchema = z.object({ path: z.string(), expectation: z.string() });

/** An edit of agentteam.json that could not be used: the daemon keeps the last valid configuration. */
export const ConfigFileErrorSchema = z.object({
  code: z.enum(['config_unreadable', 'config_malformed_json', 'config_invalid']),
  /** One line per problem, naming the file, the JSON path (or line:column) and what was expected. */
  message: z.string(),
  problems: z.array(ConfigProblemSchema),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
});

/** Channel settings an older build kept in settings.json (they used to override agentteam.json), handled once at start. */
export const LegacySettingNoticeSchema = z.object({
  /** `migrated`: written into agentteam.json (it had no value there); `ignored`: agentteam.json has its own value, which wins. */
  kind: z.enum(['migrated', 'ignored']),
  /** JSON path in agentteam.json, e.g. `channels.local.silenceWatchdog.thresholdSeconds`. */
  path: z.string(),
  value: z.unknown(),
  /** The value agentteam.json holds (`ignored` only). */
  fileValue: z.unknown().optional(),
});

export const ConfigStatusSchema = z.object({
  /** Absolute path of agentteam.json. */
  file: z.string(),
  error: ConfigFileErrorSchema.nullable(),
  /** Per channel, per setting (`silenceWatchdog.thresholdSeconds`): where the value in effect comes from. */
  origins: z.record(z.string(), z.record(z.string(), z.enum(SETTING_ORIGINS))),
  /** Top-level sections of agentteam.json changed on disk that apply after a restart (`agents`, `limits`). */
  restartNeeded: z.array(z.string()),
  notices: z.array(LegacySettingNoticeSchema),
});
export type ConfigStatus = z.infer<typeof ConfigStatusSchema>;

export const SettingsSchema = z.object({
  /** A UI-only preference (settings.json in serve, electron-store in the app). */
  language: z.enum(PROMPT_LANGUAGES),
  /** The delivery channels' settings in effect, from agentteam.json over the defaults. */
  channels: z.record(z.string(), ChannelSettingsSchema),
  /** Absent only when no daemon runs (the app's store answers alone). */
  config: ConfigStatusSchema.optional(),
});

/**
 * The limits the daemon applies that the renderer must know before it sends (issue 23): the
 * composer blocks a message over `maxMessageBytes` instead of restating the number. Fields and
 * defaults are the config schema's (`limits` in agentteam.json, shared/config.ts).
 */
const LimitsSchema = z.object({ maxMessageBytes: DaemonLimitsSchema.shape.maxMessageBytes });

/** issue 26: one changed file of a wake (git/diff.ts): counts null for a binary file, `patch` null with `omitted` saying why. */
const ChangedFileSchema = z.object({
  path: z.string(),
  oldPath: z.string().nullable(),
  status: z.enum(CHANGE_STATUSES),
  added: z.number().int().nullable(),
  removed: z.number().int().nullable(),
  binary: z.boolean(),
  patch: z.string().nullable(),
  omitted: z.enum(PATCH_OMISSIONS).nullable(),
});
const WakeChangesSchema = z.object({
  wakeToken: z.string(),
  agentId: z.string(),
  state: z.enum(WAKE_CHANGE_STATES),
  /** The agent's workspace when the wake was delivered (null for `none`). */
  workspace: z.string().nullable(),
  reason: z.string().nullable(),
  files: z.array(ChangedFileSchema),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
/**
 * issue 39: a wake's changes as the `wake.changes` event reports them: their state and how many
 * files, never the files' patches (up to 2 MB: the review pane reads them, `wakes.changes`, on this event).
 */
const WakeChangesSummarySchema = z.object({
  wakeToken: z.string(),
  agentId: z.string(),
  state: z.enum(WAKE_CHANGE_STATES),
  files: z.number().int().nonnegative(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
const ChangesSinceBaseSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  base: z.string(),
  workspace: z.string(),
  files: z.array(ChangedFileSchema),
});

const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });
const Empty = z.object({}).strict();

interface CallSchemas {
  readonly request: z.ZodType;
  readonly response: z.ZodType;
}

/** Every call: request and response schemas. Exactly the names of `API_CALL_NAMES` (api-names.ts). */
export const apiCalls = {
  /**
   * Every conversation; issue 29: with `target`, only that one (none when it does not exist), so a
   * client checking one channel never fetches them all (at 26 k they exceeded a WebSocket message).
   */
  'conversations.list': call(z.object({ target: TargetText.optional() }).strict(), z.array(ConversationSchema)),
  'conversations.create': call(z.object({ target: TargetText }).strict(), ConversationSchema),
  'messages.list': call(
    z
      .object({
        target: TargetText,
        beforeSeq: z.number().int().positive().optional(),
        // issue 17 (search → open in context): at most one of beforeSeq, afterSeq, aroundSeq.
        /** The page of messages newer than this seq (paging forward from a window opened around a seq). */
        afterSeq: z.number().int().nonnegative().optional(),
        /** The page centred on this seq (a search result opened in its conversation). */
        aroundSeq: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    z.object({
      messages: z.array(MessageSchema),
      hasMore: z.boolean(),
      /** issue 17: newer messages exist after the last one returned (only with afterSeq / aroundSeq). */
      hasNewer: z.boolean().optional(),
    }),
  ),
  // issue 17: search across conversations (SQLite FTS5). Terms are matched as plain text, all of them.
  'messages.search': call(
    z
      .object({
        query: z.string().min(1).max(500),
        limit: z.number().int().min(1).max(100).optional(),
        /** `nextBefore` of the previous page: continues with older results. */
        before: z.number().int().positive().optional(),
      })
      .strict(),
    z.object({ results: z.array(SearchResultSchema), nextBefore: z.number().int().nullable() }),
  ),
  'messages.send': call(
    z.object({ target: TargetText, content: z.string().min(1).max(1_048_576) }).strict(),
    z.object({ messageId: z.string(), seq: z.number().int(), target: z.string() }),
  ),
  'wakes.list': call(
    z
      .object({
        target: TargetText.optional(),
        activeOnly: z.boolean().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    z.array(WakeSchema),
  ),
  'wakes.inspect': call(
    z.object({ wakeToken: z.string().min(1).max(100) }).strict(),
    z.object({
      wake: WakeSchema,
      events: z.array(WakeEventSchema),
      promptInputs: z.array(PromptInputSchema),
      /** issue 24 (contract §6.6): the recovery wake that continues this one (optional so older producers parse). */
      continuedIn: z.string().nullable().default(null),
      /** issue 24: the original wakes this recovery wake continues, in order. */
      continues: z.array(z.string()).default([]),
      /** issue 24: the audited sends made while this wake was being handled, oldest first. */
      audit: z.array(AuditRecordSchema),
      /** issue 27: the usage the runtime reported for this wake's turns; null when none yet. */
      usage: WakeUsageSchema.nullable().optional(),
    }),
  ),
  /** issue 24 (contract §8.3): the audit records, newest first (`agentteam audit`). */
  'audit.list': call(
    z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(),
    z.array(AuditRecordSchema),
  ),
  // issue 17: threads started from a message; their messages come from `messages.list`.
  'threads.list': call(z.object({ parent: TargetText }).strict(), z.array(ThreadSummarySchema)),
  'threads.start': call(z.object({ messageId: z.string().min(1).max(100) }).strict(), ThreadSummarySchema),
  'agents.list': call(Empty, z.array(AgentSchema)),
  /** issue 15: re-checks readiness now (all agents, or one), without a model call. */
  'agents.check': call(z.object({ agentId: z.string().min(1).max(64).optional() }).strict(), z.array(AgentSchema)),
  'agents.installable': call(Empty, z.array(InstallableRuntimeSchema)),
  'settings.get': call(Empty, SettingsSchema),
  'settings.update': call(
    z
      .object({
        language: z.enum(PROMPT_LANGUAGES).optional(),
        channel: z.string().min(1).max(64).optional(),
        settings: ChannelSettingsSchema.optional(),
      })
      .strict(),
    SettingsSchema,
  ),
  /**
   * issue 39 "Plug-ins": a call of a channel plug-in, under the channel's namespace (`telegram`
   * `status`, `addBinding`, `removeBinding`). The channel's folder declares each call with its
   * argument and answer schemas; channels/registry.ts finds it, parses `args` with its schema
   * (`invalid_request` naming `<channel>.<call>` and the field), runs it and checks the answer. So
   * a new channel's calls never edit this contract.
   */
  'channels.call': call(
    z
      .object({
        channel: z.string().min(1).max(64),
        call: z.string().min(1).max(64),
        args: z.unknown(),
      })
      .strict(),
    z.unknown(),
  ),
  // --- issue 14: approvals, answered only from the operator's surfaces (never MCP) ---
  'approvals.list': call(
    z
      .object({
        status: z.enum(APPROVAL_STATUSES).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        /** issue 14: only the requests of this wake's turn (the inspector shows their full command or diff). */
        wakeToken: z.string().min(1).max(100).optional(),
      })
      .strict(),
    z.array(ApprovalSchema),
  ),
  'approvals.answer': call(
    z
      .object({
        id: z.string().min(1).max(100),
        decision: z.enum(APPROVAL_DECISIONS),
        scope: z.enum(APPROVAL_SCOPES).optional(),
        reason: z.string().max(2000).optional(),
      })
      .strict(),
    ApprovalSchema,
  ),
  // --- issue 14: an agent's workspace and policy chosen in the UI, its "always" rules revoked ---
  // (operator surfaces only: IPC gate, token WebSocket; never MCP). Written into agentteam.json
  // through the config source; a changed workspace or policy restarts the agent's runtime.
  'agents.update': call(
    z
      .object({
        agentId: z.string().min(1).max(64),
        /** An absolute path to an existing folder. */
        cwd: z.string().min(1).max(4096).optional(),
        permissions: z.enum(PERMISSION_POLICIES).optional(),
        /** issue 26: work in `cwd` itself or in a worktree of the agent's own. */
        isolation: AgentConfigSchema.shape.isolation.unwrap().optional(),
        /** issue 26: the branch the worktree is made from and merges into; null: the branch checked out in `cwd`. */
        baseBranch: AgentConfigSchema.shape.baseBranch.unwrap().optional(),
      })
      .strict(),
    AgentSchema,
  ),
  'agents.revokeRule': call(
    z.object({ agentId: z.string().min(1).max(64), rule: z.string().min(1).max(2000) }).strict(),
    AgentSchema,
  ),
  /** issue 29: the operator confirms a rule agentteam.json lists without a grant; from then on it applies. */
  'agents.confirmRule': call(
    z.object({ agentId: z.string().min(1).max(64), rule: z.string().min(1).max(2000) }).strict(),
    AgentSchema,
  ),
  /**
   * The OS folder picker (issue 14). Only the desktop app answers it (main process, behind the IPC
   * gate); the daemon and `agentteam serve` answer `unavailable`. `path` is null when cancelled.
   */
  'desktop.chooseFolder': call(
    z.object({ defaultPath: z.string().min(1).max(4096).optional() }).strict(),
    z.object({ path: z.string().nullable() }),
  ),
  /**
   * issue 23: the limits in effect (agentteam.json at the daemon's start). Each transport answers
   * it from the daemon's `limits` (main/daemon/api/limits-api.ts), beside the daemon's handlers.
   */
  'limits.get': call(Empty, LimitsSchema),
  /**
   * issue 29 "Turns end": the operator stops the agent's working turn at once, through the
   * runtime's own interrupt; its wakes end `failed` with `stopped_by_operator` and the agent takes
   * the next message. An operator call like `approvals.answer` (IPC gate, token WebSocket, CLI;
   * never MCP). `not_working` when the agent has no running turn.
   */
  'agents.stop': call(z.object({ agentId: z.string().min(1).max(64) }).strict(), AgentSchema),
  /**
   * issue 26: the files a wake changed in its agent's workspace (snapshots when it was delivered
   * and when it ended). `state`: `none` when the wake never reached its runtime; `pending` while
   * it runs; `untracked` outside git (`reason` says why); `failed` when git could not answer.
   */
  'wakes.changes': call(z.object({ wakeToken: z.string().min(1).max(100) }).strict(), WakeChangesSchema),
  /** issue 26: an isolated agent's worktree now against its base branch (`not_isolated` for an agent in its own folder). */
  'agents.changes': call(z.object({ agentId: z.string().min(1).max(64) }).strict(), ChangesSinceBaseSchema),
  /**
   * issue 26: a comment on one line of a wake's changes. Sent as the operator's message to the
   * wake's agent in the thread of the wake's message (its own thread when it is in one already),
   * quoting `path:line` and the hunk header (shared/changes.ts); it wakes the agent like any message.
   */
  'wakes.comment': call(
    z
      .object({
        wakeToken: z.string().min(1).max(100),
        path: z.string().min(1).max(4096),
        line: z.number().int().positive(),
        side: z.enum(['old', 'new']),
        hunkHeader: z.string().min(1).max(1000),
        lineText: z.string().max(2000).optional(),
        text: z.string().trim().min(1).max(65_536),
      })
      .strict(),
    z.object({ messageId: z.string(), seq: z.number().int(), target: z.string() }),
  ),
  // --- issue 25: chains and the Team board ---
  /** Chains newest first; with `target`, that conversation's only; `pausedOnly` for the status area. */
  'chains.list': call(
    z
      .object({
        target: TargetText.optional(),
        pausedOnly: z.boolean().optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    z.array(ChainSchema),
  ),
  /**
   * The operator's Continue of a paused chain (UI, `agentteam chain continue`, Telegram button):
   * another `limits.agentHops`, and the held message's addressed agents are woken. By `chainId`, or
   * the newest paused chain of `target`, or the newest paused chain anywhere. `not_paused` when none is.
   */
  'chains.continue': call(
    z.object({ chainId: z.string().min(1).max(100).optional(), target: TargetText.optional() }).strict(),
    ChainSchema,
  ),
  /** Every agent with what it is doing now (the Team view). */
  'team.board': call(Empty, z.array(TeamAgentSchema)),
  // --- issue 26: an isolated agent's work — what it holds beyond its base, merge into it, discard it ---
  'worktree.changes': call(z.object({ agentId: z.string().min(1).max(64) }).strict(), WorktreeChangesSchema),
  /** Operator only. Commits uncommitted work (`message`), then fast-forwards or merges into the base. */
  'worktree.merge': call(
    z.object({ agentId: z.string().min(1).max(64), message: z.string().min(1).max(2000).optional() }).strict(),
    WorktreeMergeSchema,
  ),
  /** Operator only. `confirm` must be true: uncommitted work and the branch's own commits are lost. */
  'worktree.discard': call(
    z.object({ agentId: z.string().min(1).max(64), confirm: z.literal(true) }).strict(),
    z.object({ commit: z.string() }),
  ),
  // --- end issue 26 ---
  /**
   * issue 27 "pause, don't fail": the operator's Try now on a paused agent — its paused wakes are
   * delivered now, before the limit's reset. Operator only. `not_paused` when nothing is paused.
   */
  'agents.tryNow': call(z.object({ agentId: z.string().min(1).max(64) }).strict(), AgentSchema),
  /**
   * issue 27: the operator's Cancel — the paused wakes end `failed/stopped_by_operator` (the operator
   * ended that work) and the wakes behind them go on. Operator only. `not_paused` when nothing is paused.
   */
  'agents.cancelPause': call(z.object({ agentId: z.string().min(1).max(64) }).strict(), AgentSchema),
  // --- issue 27: usage, limit windows, budgets ---
  /** Per agent per UTC day since `since` (default: 6 days before today), the latest limit windows, the budgets. */
  'usage.summary': call(UsageSummaryRequestSchema, UsageSummarySchema),
  /**
   * The operator raises (or sets, or with `budget: null` removes) an agent's daily budget: written
   * into agentteam.json the way `agents.update` saves; a wake waiting on the budget is released.
   */
  'agents.raiseBudget': call(
    z.object({ agentId: z.string().min(1).max(64), budget: BudgetSchema.nullable() }).strict(),
    AgentSchema,
  ),
} as const satisfies Record<ApiCallName, CallSchemas>;

/** Every event pushed from the daemon to the renderer. Exactly the names of `API_EVENT_NAMES`. */
export const apiEvents = {
  'message.stored': MessageSchema,
  /**
   * issue 39, one event per concern of a wake. `wake.status`: the wake as it stands after a status
   * change (contract §10.1), built from the lifecycle's `wake_status` event.
   */
  'wake.status': WakeSchema,
  /** A timeline entry appended to a wake (a beacon, the escalation, a delivery attempt, an alert, a compaction). */
  'wake.timeline': WakeEventSchema,
  /** A wake's changes were recorded (issue 26): when it was delivered, and when it ended. */
  'wake.changes': WakeChangesSummarySchema,
  'alert.raised': AlertSchema,
  'agent.updated': AgentSchema,
  /**
   * The desktop shell asks the UI to open a wake in the inspector (the person clicked its OS
   * notification). Never emitted by the daemon; `agentteam serve` has no such source.
   */
  'wake.focusRequested': z.object({ wakeToken: z.string() }),
  /** issue 17: agentteam.json changed on disk (or its edit could not be used), or the settings were saved. */
  'settings.changed': SettingsSchema,
  /** issue 14: an approval was asked or settled. */
  'approval.updated': ApprovalSchema,
  /** issue 25: a chain's hops or status changed (paused at its budget, continued). */
  'chain.updated': ChainSchema,
  /** issue 25: one agent's Team board entry changed. */
  'team.updated': TeamAgentSchema,
  /** issue 27: usage of an agent changed (a wake's usage stored, a limit window announced, a budget edited). */
  'usage.updated': z.object({ agentId: z.string() }),
} as const satisfies Record<ApiEventName, z.ZodType>;

export type ApiRequest<K extends ApiCallName> = z.input<(typeof apiCalls)[K]['request']>;
export type ApiResponse<K extends ApiCallName> = z.infer<(typeof apiCalls)[K]['response']>;
export type ApiEventPayload<K extends ApiEventName> = z.infer<(typeof apiEvents)[K]>;
export type ApiEvent = { [K in ApiEventName]: { name: K; payload: ApiEventPayload<K> } }[ApiEventName];

export type Conversation = z.infer<typeof ConversationSchema>;
export type Message = z.infer<typeof MessageSchema>;
export type ThreadSummary = z.infer<typeof ThreadSummarySchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type Wake = z.infer<typeof WakeSchema>;
export type WakeEvent = z.infer<typeof WakeEventSchema>;
export type PromptInput = z.infer<typeof PromptInputSchema>;
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
export type Agent = z.infer<typeof AgentSchema>;
export type InstallableRuntime = z.infer<typeof InstallableRuntimeSchema>;
export type AgentReadiness = z.infer<typeof AgentReadinessSchema>;
export type Approval = z.infer<typeof ApprovalSchema>;
export type Alert = z.infer<typeof AlertSchema>;
export type Settings = z.infer<typeof SettingsSchema>;
export type Limits = z.infer<typeof LimitsSchema>;
export type ChangedFile = z.infer<typeof ChangedFileSchema>;
export type WakeChanges = z.infer<typeof WakeChangesSchema>;
export type WakeChangesSummary = z.infer<typeof WakeChangesSummarySchema>;
export type ChangesSinceBase = z.infer<typeof ChangesSinceBaseSchema>;
export type Chain = z.infer<typeof ChainSchema>;
export type TeamAgent = z.infer<typeof TeamAgentSchema>;

/** The limits of a daemon whose agentteam.json sets none: the schema's defaults, never a second literal. */
export const DEFAULT_LIMITS: Limits = LimitsSchema.parse({});

/** Stable error codes at the API boundary (STYLE.md habit 9). */
export const API_ERROR_CODES = [
  'invalid_request',
  'invalid_target',
  'unknown_target',
  'unknown_wake',
  'unknown_message',
  'unknown_approval',
  'approval_settled',
  'content_too_large',
  'forbidden_sender',
  'unknown_call',
  'unavailable',
  'internal',
  // issue 16/17: settings.update names a delivery channel the daemon does not have.
  'unknown_channel',
  // issue 17: agentteam.json holds an edit that cannot be used; fix it before saving from the UI.
  'config_invalid',
  // --- issue 14: an agent's settings edited from the UI (agents.update, agents.revokeRule) ---
  'unknown_agent',
  'unknown_rule',
  'workspace_invalid',
  // issue 29: agents.stop of an agent that is not working on a turn (nothing to stop)
  'not_working',
  // issue 29: an operator call on a connection without this start's operator key (e.g. a process an agent started).
  'operator_only',
  // issue 26: "changes since base" of an agent that works in its own folder, not a worktree
  'not_isolated',
  // issue 25: chains.continue of an unknown chain, or of one that is not paused
  'unknown_chain',
  'not_paused',
  // --- issue 26: merge / discard of an isolated agent's worktree ---
  'not_isolated',
  'turn_running',
  'git_unavailable',
  'worktree_invalid',
  // issue 27: agents.tryNow / agents.cancelPause of an agent that is not paused
  'not_paused',
  // issue 27: a budget that is not a positive number of tokens / USD
  'budget_invalid',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** What every transport answers: a value, or an error a person can act on. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; code: ApiErrorCode; message: string };

/** Thrown by daemon services for an expected, user-facing failure; transports turn it into `{ok:false}`. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type ApiHandler<K extends ApiCallName> = (request: z.infer<(typeof apiCalls)[K]['request']>) => Promise<ApiResponse<K>>;

/**
 * Calls each transport answers from the daemon's public face (`Daemon.limits`) rather than from a
 * daemon handler (main/daemon/api/limits-api.ts; the IPC gate and serve's WebSocket bridge add it).
 */
export type TransportCallName = 'limits.get';

/** The daemon side of the contract: one async handler per call; the transports' own calls may be left to them. */
export type ApiHandlers = { [K in Exclude<ApiCallName, TransportCallName>]: ApiHandler<K> } & {
  [K in TransportCallName]?: ApiHandler<K>;
};

type DomainOf<K extends string> = K extends `${infer D}.${string}` ? D : never;
type VerbOf<K extends string> = K extends `${string}.${infer V}` ? V : never;

/**
 * What the renderer sees, whatever the transport: one named method per call grouped by
 * domain (`api.wakes.list({})`), each answering an `ApiResult`, plus one event subscription
 * that returns its unsubscribe function. The preload exposes exactly this as `window.agentteam`;
 * the WebSocket client of `agentteam serve` implements the same type.
 */
export type ClientApi = {
  readonly [D in DomainOf<ApiCallName>]: {
    readonly [K in ApiCallName as DomainOf<K> extends D ? VerbOf<K> : never]: (
      request: ApiRequest<K>,
    ) => Promise<ApiResult<ApiResponse<K>>>;
  };
} & {
  readonly events: { subscribe(listener: (event: ApiEvent) => void): () => void };
};
