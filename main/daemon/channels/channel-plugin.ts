/**
 * The channel plug-in contract (issue 39 "Plug-ins"): what the root gives an external channel and
 * what the channel gives back. A channel is one folder under channels/, one line in
 * channels/registry.ts and its section in agentteam.json's `channels` (shared/config.ts
 * `ChannelsSchema`). The root builds every registered channel once, handing it everything it
 * needs at creation (the operator's actions included, so no setter closes a cycle later), and
 * iterates them through the registry: delivery routes, beacons, where a conversation is
 * delivered, chain and usage notices, the API calls they answer, start and stop.
 *
 * Spec words: a channel delivers an agent's replies through the delivery tracker (watchdog spec
 * B), posts its own silence beacons when it does not take the daemon's (spec A), turns its
 * inbound messages into operator messages (`post`, idempotent by `inboundKey`), and posts notices
 * (alerts, failed wakes, usage warnings) as neutral messages, never as the agent.
 */
import type { RuntimeWords } from '../../../shared/agent-readiness.js';
import type { Registry } from 'prom-client';
import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Alert, Chain } from '../../../shared/api/contract.js';
import type { ApprovalDecision, ApprovalScope } from '../../../shared/approvals.js';
import type { ChannelSettings, PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import type { PauseKind } from '../../../shared/wake-status.js';
import type { UsageWarningFacts } from '../alerts/usage-warning-words.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ChannelRoute } from '../delivery/channel-routes.js';
import type { DeliveryTracker } from '../delivery/delivery-tracker.js';
import type { ApprovalRecord } from '../store/index.js';
import type { WakeStatusEvent } from '../wake/wake-status-event.js';
import type { Beacon } from '../watchdog/silence-beacons.js';

/** A chat of a channel bound to a conversation, as the store keeps it (ids in the channel's own form). */
export interface StoredBinding {
  readonly chatId: string;
  readonly target: string;
  readonly allowFrom: readonly (string | number)[];
}

/** A channel's durable state in the store, keyed by the channel's name (store/tables/channel-state-table.ts). */
export interface ChannelStore {
  /** Bindings added in the Settings page, oldest first. */
  listBindings(channel: string): readonly StoredBinding[];
  /** @throws when the chat or the conversation is bound already on that channel. */
  addBinding(channel: string, b: { chatId: string; target: TargetKey; allowFrom: readonly (string | number)[] }): void;
  removeBinding(channel: string, chatId: string): boolean;
  ensureConversation(target: TargetKey): unknown;
  /** The conversation of a target, or undefined when it does not exist (a binding names an existing one). */
  getConversation(target: TargetKey): unknown;
  /** The channel's durable position in its provider's stream (e.g. Telegram's next update_id), or null. */
  channelCursor(channel: string): number | null;
  /** Moves the cursor forward (never back). */
  setChannelCursor(channel: string, position: number): void;
  /** issue 30 (group commit): resolves once the writes made so far are durable. */
  whenDurable(): Promise<void>;
}

/** The approval service as a channel asks and answers approvals (approvals/approval-service.ts). */
export interface ChannelApprovalPort {
  readonly changes$: Observable<ApprovalRecord>;
  get(id: string): ApprovalRecord | undefined;
  answer(id: string, decision: ApprovalDecision, scope?: ApprovalScope): ApprovalRecord;
}

/** The daemon's Stop (services/turn-deadlines.ts): throws `ApiError` when that turn is not running. */
export interface ChannelStopPort {
  stop(agentId: string, turnId?: string): void;
}

/** The team service's Continue (`chains.continue`'s rule): throws `ApiError` when that chain is not paused. */
export interface ChannelChainPort {
  continueChain(request: { readonly chainId: string }): unknown;
}

/** The operator's actions a channel offers as buttons (issues 14, 25, 29), each the daemon's own rule. */
export interface OperatorPorts {
  readonly approvals: ChannelApprovalPort;
  readonly turns: ChannelStopPort;
  readonly team: ChannelChainPort;
}

/** A channel's timing knobs by name (tests make them small); each channel documents its own. */
export type ChannelTuning = Readonly<Partial<Record<string, number>>>;

/** What the root gives a channel, once, at creation. */
export interface ChannelContext<Section> {
  /** The channel's name: its delivery channel, its settings key and its store key. */
  readonly name: string;
  /** Its section of agentteam.json's `channels` as the file was at start, or undefined when absent. */
  readonly section: Section | undefined;
  /** agentteam.json (e.g. to warn when it holds a token others can read). */
  readonly configFile: string;
  readonly env: NodeJS.ProcessEnv;
  readonly store: ChannelStore;
  readonly bus: HookBus;
  readonly tracker: Pick<DeliveryTracker, 'send' | 'alert$'>;
  /** Watchdog + delivery settings of a channel as agentteam.json has them now. */
  readonly settingsFor: (channel: string) => ChannelSettings;
  readonly agentName: (agentId: string) => string;
  /** issue 39: what the agent's runtime is called and how it is signed in (its descriptor's words). */
  readonly runtimeWords: (agentId: string) => RuntimeWords;
  /** Posts an operator message (ConversationService.post): idempotent by `inboundKey`. */
  readonly post: (
    target: string,
    content: string,
    options: { inboundKey: string },
  ) => { readonly duplicate?: boolean; readonly wakeTokens: readonly string[] };
  readonly registry: Registry;
  readonly log: DaemonLog;
  /** The app's language (`settings.language`) for the channel's own words. */
  readonly language: () => PromptLanguage;
  /** The stored wake: its conversation and its recoveries (issue 24). */
  readonly wakeOf: (wakeToken: string) => { readonly target: string; readonly recoveries: number } | undefined;
  /**
   * issue 40 item 8: the agent's stored pause — its kind, reset (epoch ms, null when unknown) and the
   * start of its episode (`pausedAt`, the same for every probe of one pause) — or undefined.
   */
  readonly pauseOf: (
    agentId: string,
  ) => { readonly kind: PauseKind; readonly resetsAt: number | null; readonly pausedAt: string } | undefined;
  /** Every wake status change (the lifecycle's `wakeStatus$`). */
  readonly wakeStatus$: Observable<WakeStatusEvent>;
  readonly operator: OperatorPorts;
  readonly tuning: ChannelTuning | undefined;
}

/**
 * issue 39 "Plug-ins": one API call a channel answers itself, under its namespace (the contract's
 * `channels.call` with `{ channel, call, args }`). The channel declares the schema of its
 * arguments (parsed before `handle` runs: a malformed call is `invalid_request` naming the field)
 * and of its answer (checked after: a channel never answers what it did not declare).
 */
export interface ChannelCall<Args extends z.ZodType = z.ZodType, Answer extends z.ZodType = z.ZodType> {
  readonly args: Args;
  readonly answer: Answer;
  handle(args: z.output<Args>): Promise<z.input<Answer>>;
}

/** A channel's calls by name (`status`, `addBinding`, …); the channel's name is their namespace. */
export type ChannelCalls = Readonly<Record<string, ChannelCall>>;

/** Declares one channel call, typing `handle` from its two schemas. */
export function channelCall<Args extends z.ZodType, Answer extends z.ZodType>(
  args: Args,
  answer: Answer,
  handle: (args: z.output<Args>) => Promise<z.input<Answer>>,
): ChannelCall {
  // A handler typed by its own schemas, kept behind the erased `ChannelCall` the registry dispatches to.
  return { args, answer, handle } as unknown as ChannelCall;
}

/** What a channel gives back. */
export interface ChannelPlugin {
  /** Its delivery channel, and whether the daemon's silence beacons go on it (ChannelRoutes). */
  readonly route: ChannelRoute;
  /** The silence beacons it raises itself (for the metrics); empty when it takes the daemon's. */
  readonly beacon$: Observable<Beacon>;
  /** The API calls it answers under its name (see `ChannelCall`); none when it has no page of its own. */
  readonly calls: ChannelCalls;
  /** issue 24: this channel's name when a conversation is delivered on it (e.g. bound to a chat), else null. */
  deliveryChannelOf(target: string): string | null;
  /** issue 25: a chain's hops or status changed (the `chain.updated` event). */
  chainChanged(chain: Chain): void;
  /** issue 27: a usage warning raised in a conversation (once, by the alert's id). */
  usageWarning(agentId: string, alert: Alert, warning: UsageWarningFacts): void;
  /** Starts following the bus and its provider; `stop` ends both. */
  start(): void;
  stop(): void;
}

/** One registry line: a channel's name, its settings section's schema, and how it is built. */
export interface ChannelDescriptor<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** Its section of `channels` in agentteam.json (the schema shared/config.ts validates it with). */
  readonly settingsSchema: Schema;
  create(context: ChannelContext<z.output<Schema>>): ChannelPlugin;
}
