/**
 * The agent's side: what the agentteam MCP tools do (DESIGN.md data flow). The only path by
 * which an agent's words become a message (contract §6.1): guard (send scope) → delivery
 * tracker (response_id, chunks, ACK, retry) → local channel → result with the target's
 * SeenUpToSeq → the wake table settles rows with TargetSeq <= SeenUpToSeq (§9.2).
 *
 * SeenUpToSeq lives in the store only (the agent's cursor, raised in the transaction that records
 * a wake `delivered`, issue 16). A reply carries it on its send request as its RepliedUpToSeq, which
 * the local channel stores with the reply in one transaction (contract §9.2).
 *
 * It follows the wakes itself (watchdog spec B "No-response detection", issue 24): a turn whose
 * wakes ended without a reply after their final-check (`no_reply`), and that sent nothing at all,
 * raises one `no_response` alert — one per turn, however many of its wakes ended so — governed by
 * the `responseDelivery` flags of the channel the conversation is delivered on (Telegram for a
 * bound conversation, else local). Every wake is operator-triggered (an agent's message wakes no
 * one, mention-router.ts); a signal-only row ends `signal_only` and raises nothing. And it
 * follows the MCP server's tool calls: our own refusals of an agent's `message_send` are recorded
 * on the wakes it is handling (issue 15), and a deliberate cross-target send is audited on them
 * (§8.3). Which wakes a reply settles is the wake table's rule (§9.2), asked of the lifecycle.
 *
 * A send is idempotent within a turn (issue 28): a repeated identical `message_send` — same agent,
 * same turn, same target, same content — made when the agent has seen nothing new on that target
 * since the first one (its SeenUpToSeq did not move) answers the first send's result as
 * `already_sent` and posts nothing, so a runtime that retries a completed call (Qwen after a
 * compaction) cannot post twice. The repeat still goes through the §9.2 settle rule with the first
 * send's SeenUpToSeq, so every wake that frontier covers is settled — also one added since (a
 * second wake batched into the turn, which must not stay `delivered`). The same text after the
 * agent saw a newer message on that target answers that message: a new send. A different message
 * is a new send; a send that failed is retried.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Subscription, type Observable } from 'rxjs';
import { DEFAULT_DAEMON_LIMITS, LOCAL_CHANNEL } from '../../../shared/config.js';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import { SEND_REFUSAL_CODES, type SendRefusalCode } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { boundedDetail } from '../diagnostics.js';
import type { DeliveryTracker } from '../delivery/delivery-tracker.js';
import type {
  CommunicationHandler,
  MessageSendArgs,
  MessageSendResult,
  ReactionArgs,
  ToolRefusal,
} from '../mcp/communication-handler.js';
import { TOOL_MESSAGE_SEND } from '../mcp/mcp-names.js';
import type { McpToolCallRecord } from '../mcp/mcp-server.js';
import { RateLimiter } from '../mcp/rate-limiter.js';
import type { MessageRecord, ReactionRecord, Store, WakeRecord } from '../store/index.js';
import type { AgentMessageInput } from '../teams/team-service.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { WakeStatusEvent } from '../wake/wake-status-event.js';
import type { WakeTimelineEntry } from '../wake/wake-timeline.js';

export interface CommunicationServiceOptions {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly tracker: DeliveryTracker;
  /** The agent's running turn, if any (delivery correlation: turn_id + response_id). */
  readonly currentTurn: (agentId: string) => string | null;
  /** A new message, or (with its reactions) an existing one whose reactions changed. */
  readonly onMessageStored: (message: MessageRecord, reactions?: readonly ReactionRecord[]) => void;
  /** An entry was appended to a wake's timeline outside its status stream (a refusal recorded on it; the API's `wake.timeline`). */
  readonly onTimeline?: (entry: WakeTimelineEntry) => void;
  /** The channel a conversation is delivered on (its `responseDelivery` flags govern the no-response alert); default local. */
  readonly deliveryChannelOf?: (target: string) => string;
  /** issue 29: shared/config.ts `limits.conversationsPerHour` (conversations one agent may start per hour). */
  readonly conversationsPerHour?: number;
  /** The clock of that limit (ms); `Date.now` by default. */
  readonly now?: () => number;
  /** issue 25: routes a stored agent message to the agents it addresses and hands replies back (teams/team-service.ts). */
  readonly team?: { agentMessage(input: AgentMessageInput): readonly string[] };
  readonly log?: DaemonLog;
}

const HOUR_MS = 3_600_000;

/** How many recent turns the service remembers (that sent something, that were alerted). */
const TURNS_REMEMBERED = 1024;

/** How many recent delivered sends the service remembers for `already_sent` (issue 28). */
const SENDS_REMEMBERED = 1024;

/** A set that forgets its oldest entries beyond `TURNS_REMEMBERED`. */
class RecentTurns {
  readonly #ids = new Set<string>();
  has(id: string): boolean {
    return this.#ids.has(id);
  }
  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > TURNS_REMEMBERED) this.#ids.delete(this.#ids.values().next().value as string);
  }
}

/** issue 28: what makes two sends the same text of one turn (the content by its digest: never kept in memory twice). */
const sendKey = (agentId: string, turnId: string, args: MessageSendArgs): string =>
  JSON.stringify([agentId, turnId, args.target, createHash('sha256').update(args.content, 'utf8').digest('hex')]);

/** issue 28: a first send, and the SeenUpToSeq of its target when it was made. */
interface FirstSend {
  readonly result: Promise<MessageSendResult | ToolRefusal>;
  readonly seenUpToSeq: number;
}

const isSendRefusal = (outcome: string): outcome is SendRefusalCode =>
  (SEND_REFUSAL_CODES as readonly string[]).includes(outcome);

export class CommunicationService implements CommunicationHandler {
  readonly #subs = new Subscription();
  /** Turns that sent a reply or a reaction: not a zero-outbound turn (spec B). */
  readonly #outbound = new RecentTurns();
  /** Turns whose no_response alert was raised (one per turn). */
  readonly #alerted = new RecentTurns();
  /** issue 29: one bucket per agent of the conversations it starts, refilled over an hour. */
  readonly #conversations: RateLimiter;
  readonly #conversationsPerHour: number;
  /** issue 28: the first send of each (agent, turn, target, content), oldest first. */
  readonly #sends = new Map<string, FirstSend>();

  constructor(private readonly o: CommunicationServiceOptions) {
    this.#subs.add(o.lifecycle.wakeStatus$.subscribe((e) => this.#onWakeStatus(e)));
    this.#conversationsPerHour = o.conversationsPerHour ?? DEFAULT_DAEMON_LIMITS.conversationsPerHour;
    this.#conversations = new RateLimiter(this.#conversationsPerHour, HOUR_MS);
  }

  /** Stops following the wakes and the tool calls. */
  dispose(): void {
    this.#subs.unsubscribe();
  }

  /** issue 15: records our own refusals of an agent's `message_send` on the wakes it is handling. */
  followToolCalls(toolCalls$: Observable<McpToolCallRecord>): void {
    this.#subs.add(
      toolCalls$.subscribe((c) => {
        if (c.tool !== TOOL_MESSAGE_SEND || !isSendRefusal(c.outcome)) return;
        this.onSendRefused(c.agentId, c.outcome, `the agent's ${TOOL_MESSAGE_SEND} was refused`);
      }),
    );
  }

  /**
   * issue 15: our own refusal of the agent's `message_send` (`rate_limited`, `out_of_scope`,
   * `content_too_large`) is charged to the wakes its runtime is handling now (the lifecycle keeps
   * it on their rows, and a wake that then ends without a reply names it in its detail) and shown
   * on their timelines as an alert. Returns the wakes charged.
   */
  onSendRefused(agentId: string, code: SendRefusalCode, message: string): readonly string[] {
    const charged = this.o.lifecycle.chargeRefusal(agentId, code);
    const detail = boundedDetail(`message_send refused: ${code}: ${message}`);
    for (const wakeToken of charged) {
      this.o.store.appendWakeEvent({ wakeToken, kind: 'alert', reason: code, detail });
      this.o.onTimeline?.({ wakeToken, kind: 'alert', reason: code, detail });
    }
    return charged;
  }

  #onWakeStatus(e: WakeStatusEvent): void {
    if (e.status !== 'completed_without_visible_reply' || e.reason !== 'no_reply') return;
    // issue 24: `no_reply` means only the agent's own silence after its final-check; a lost session's
    // originals end `failed` or `context_overflow`, and their recovery continues the work.
    const turnId = this.o.currentTurn(e.agentId);
    // The wakes of one turn end together at its boundary; without a turn, the wake is its own.
    const key = turnId ?? `wake:${e.wakeToken}`;
    if (this.#outbound.has(key) || this.#alerted.has(key)) return;
    this.#alerted.add(key);
    // The tracker checks the channel's `enabled` and `alertOnNoResponse`.
    this.o.tracker.raiseNoResponseAlert({
      turnId,
      agentId: e.agentId,
      channel: this.o.deliveryChannelOf?.(e.target) ?? LOCAL_CHANNEL,
      target: e.target,
      wakeToken: e.wakeToken,
    });
  }

  /** The agent's running turn delivered something operator-visible (spec B: it is not a zero-outbound turn). */
  #sentInTurn(agentId: string): void {
    const turnId = this.o.currentTurn(agentId);
    if (turnId !== null) this.#outbound.add(turnId);
  }

  /** SeenUpToSeq: the highest TargetSeq of `target` made runtime-visible to the agent (the store's cursor). */
  seenUpToSeq(agentId: string, target: TargetKey): number {
    return this.o.store.agentCursor(agentId, target).seenUpToSeq;
  }

  async messageSend(agentId: string, args: MessageSendArgs): Promise<MessageSendResult | ToolRefusal> {
    // DESIGN.md: SeenUpToSeq is what the agent had seen *before* the send.
    const seenUpToSeq = this.seenUpToSeq(agentId, args.target);
    const turnId = this.o.currentTurn(agentId);
    // Without a running turn there is no wake to be idempotent in: every call is a send.
    if (turnId === null) return this.#send(agentId, args, seenUpToSeq, `turn_none_${randomUUID()}`);
    const key = sendKey(agentId, turnId, args);
    const first = this.#sends.get(key);
    // A repeat after the agent saw a newer message on the target answers that message: a new send.
    if (first !== undefined && seenUpToSeq <= first.seenUpToSeq) {
      const result = await first.result;
      if (result.ok) {
        this.o.log?.info('message_send repeated: already_sent', { agentId, target: args.target, turnId });
        // §9.2: `already_sent` settles like `sent`, with what the first send covered.
        this.o.lifecycle.onSendResult({
          agentId,
          status: 'already_sent',
          targetKey: result.targetKey,
          seenUpToSeq: result.seenUpToSeq,
        });
        return { ...result, status: 'already_sent' };
      }
      // The first one was refused or failed: nothing was posted, so this one is a new attempt.
    }
    const sending: FirstSend = { result: this.#send(agentId, args, seenUpToSeq, turnId), seenUpToSeq };
    this.#sends.delete(key);
    this.#sends.set(key, sending);
    if (this.#sends.size > SENDS_REMEMBERED) this.#sends.delete(this.#sends.keys().next().value as string);
    const result = await sending.result;
    if (!result.ok && this.#sends.get(key) === sending) this.#sends.delete(key);
    return result;
  }

  async #send(
    agentId: string,
    args: MessageSendArgs,
    seenUpToSeq: number,
    turnId: string,
  ): Promise<MessageSendResult | ToolRefusal> {
    const scope = this.o.lifecycle.checkSendScope(agentId, args.target, args.allowCrossTarget);
    if (!scope.ok) return { ok: false, code: scope.code, message: scope.message };
    if (scope.crossTarget) {
      const unknown = this.#unknownDm(args.target);
      if (unknown !== null) return unknown;
      // issue 29: a send that starts a conversation takes one of the agent's conversations per hour.
      const limited = this.#conversationLimited(agentId, args.target);
      if (limited !== null) return limited;
    }
    // issue 16: the reply is stored with what it covered (its RepliedUpToSeq), in the same transaction.
    const outcome = await this.o.tracker.send({
      turnId,
      agentId,
      target: args.target,
      content: args.content,
      responseId: `rsp_${randomUUID()}`,
      repliedUpToSeq: seenUpToSeq,
    });
    if (outcome.status === 'failed_final' || outcome.status === 'uncertain') {
      this.o.log?.warn('message_send not delivered', {
        agentId,
        target: args.target,
        status: outcome.status,
        code: outcome.code,
      });
      return {
        ok: false,
        code: outcome.status === 'uncertain' ? 'delivery_uncertain' : 'delivery_failed',
        message: outcome.message,
      };
    }
    const messageId = outcome.messageIds[outcome.messageIds.length - 1];
    if (messageId === undefined) throw new Error('internal: a delivered response has no message id');
    this.#sentInTurn(agentId);
    // issue 39 (bench/PROFILES.md, busy team): the wakes the reply settles and the wakes its routing
    // admits are one commit, not two per reply. The routing keeps its own savepoint: its failure
    // is logged and rolls back only its own writes, as before.
    this.o.store.transaction(() => {
      // The wakes the author's runtime is handling, and those this reply settles (§9.2, the table's
      // rule), read before they settle: issue 25 routes a reply by them; §8.3 audits a cross-target send on them.
      const handling =
        outcome.status === 'sent' || scope.crossTarget
          ? this.o.lifecycle.handling(agentId, args.target, seenUpToSeq)
          : [];
      const routed = outcome.status === 'sent' ? this.#handled(handling) : null;
      // contract §8.3: an explicit cross-target send is allowed and audited — issue 24: on the
      // timelines of the wakes the runtime was handling (runtime-visible rows).
      if (scope.crossTarget) {
        const wakeTokens = handling.map((h) => h.wakeToken);
        this.o.store.appendAudit({ agentId, kind: 'cross_target_send', target: args.target, messageId, wakeTokens });
      }
      this.o.lifecycle.onSendResult({ agentId, status: outcome.status, targetKey: args.target, seenUpToSeq });
      // issue 25: a message sent once (never a retried `already_sent`) wakes the agents it addresses, once.
      const message = routed === null ? undefined : this.o.store.getMessage(messageId);
      if (routed !== null && message !== undefined && this.o.team !== undefined) {
        try {
          this.o.team.agentMessage({ message, ...routed });
        } catch (err) {
          // The message is stored and delivered; a routing failure must not turn the send into a refusal.
          this.o.log?.error('agent message routing failed', { agentId, messageId, error: String(err) });
        }
      }
    });
    // issue 39: each chunk stored is pushed once, as it stands after routing (with the chain it joined), in
    // the same stretch of code as the status it settles: the page receives both in one message.
    if (outcome.status === 'sent')
      for (const id of outcome.messageIds) {
        const stored = this.o.store.getMessage(id);
        if (stored !== undefined) this.o.onMessageStored(stored);
      }
    return { ok: true, status: outcome.status, targetKey: args.target, seenUpToSeq, messageId };
  }

  /** The stored records of the wakes being handled, and of them those the reply settles (the lifecycle's answer). */
  #handled(rows: ReturnType<WakeLifecycle['handling']>): { settled: WakeRecord[]; handling: WakeRecord[] } {
    const settled: WakeRecord[] = [];
    const handling: WakeRecord[] = [];
    for (const row of rows) {
      const wake = this.o.store.getWake(row.wakeToken);
      if (wake === undefined) continue;
      handling.push(wake);
      if (row.settled) settled.push(wake);
    }
    return { settled, handling };
  }

  /**
   * issue 29 "Bounded input everywhere": conversations per agent per hour are limited like
   * messages (a token bucket, ../mcp/rate-limiter.ts); the refusal names the limit and its key.
   * Only a send to a conversation that does not exist yet takes a token.
   */
  #conversationLimited(agentId: string, target: TargetKey): ToolRefusal | null {
    if (this.o.store.getConversation(target) !== undefined) return null;
    const rate = this.#conversations.take(agentId, (this.o.now ?? Date.now)());
    if (rate.allowed) return null;
    const minutes = Math.max(1, Math.ceil(Math.round(rate.retryAfterMs / 1000) / 60));
    return {
      ok: false,
      code: 'rate_limited',
      message: `You have started ${this.#conversationsPerHour} new conversations in the last hour, the limit (limits.conversationsPerHour in agentteam.json); "${target}" was not created and nothing was sent. Send to a conversation that exists, or wait ${minutes} min.`,
    };
  }

  /**
   * A deliberate send elsewhere goes only to a conversation that can exist: a DM names a member
   * of this daemon (issue 16: `dm:@nobody` was created on demand).
   */
  #unknownDm(target: TargetKey): ToolRefusal | null {
    const parsed = parseTarget(target);
    if (!parsed.ok || parsed.target.kind !== 'dm') return null;
    const member = parsed.target.member;
    const agents = this.o.store.agentNames();
    if (agents.has(member)) return null;
    return {
      ok: false,
      code: 'unknown_target',
      message: `There is no member "@${member}" to message directly; direct-message targets are ${[...agents.keys()].map((id) => `"dm:@${id}"`).join(', ') || 'none'}. Nothing was sent.`,
    };
  }

  async reaction(agentId: string, args: ReactionArgs): Promise<{ ok: true } | ToolRefusal> {
    const message = this.o.store.getMessage(args.messageId);
    if (message === undefined) {
      return {
        ok: false,
        code: 'unknown_message',
        message: `There is no message "${args.messageId}"; react with the message id shown in the delivery (id="...").`,
      };
    }
    // contract §9.2: a confirmed reaction to the triggering message settles exactly that row.
    const input = { agentId, messageId: args.messageId };
    if (!this.o.lifecycle.awaitsReaction(input)) {
      return {
        ok: false,
        code: 'unknown_message',
        message: `Message "${args.messageId}" is not one you were woken by and have not answered; to reply, call message_send with its target.`,
      };
    }
    this.#sentInTurn(agentId);
    // issue 24: stored (visible with the message) before it settles the wake, as a reply is
    // stored before its send result: a wake never reads "replied" over a reaction that is not there.
    this.o.store.addReaction({ messageId: args.messageId, authorId: agentId, emoji: args.emoji });
    this.o.onMessageStored(message, this.o.store.reactionsOf([message.id]).get(message.id));
    this.o.lifecycle.onReactionConfirmed(input);
    this.o.log?.info('reaction confirmed', { agentId, messageId: args.messageId });
    return { ok: true };
  }
}
