/**
 * The operator's side of a conversation: post a message, then route it to the agents it wakes
 * (DESIGN.md data flow: store.append → router → wake rows). Preserved replies that could not
 * be delivered are re-delivered on the next inbound message of their target (watchdog spec B).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../shared/api/contract.js';
import { GENERAL_CONVERSATION } from '../../../shared/config.js';
import { parseTarget, targetKey, type Target, type TargetKey } from '../../../shared/target.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import type { DeliveryTracker } from '../delivery/delivery-tracker.js';
import { agentsToWake } from '../router/mention-router.js';
import type { MessageRecord, Store } from '../store/index.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { WakeChainFields } from '../wake/wake-ports.js';

/** The one person at this desk (member id of the operator). */
export const OPERATOR_ID = 'operator';
export const OPERATOR_NAME = 'You';

/** The first conversation every data dir has. */
export const GENERAL = targetKey(GENERAL_CONVERSATION);

/** Members and the conversations every start has: the operator, each agent, `#general` and each agent's DM. */
export function seedConversations(
  store: Store,
  agents: readonly { readonly id: string; readonly name: string }[],
): void {
  store.upsertMember({ id: OPERATOR_ID, kind: 'operator', name: OPERATOR_NAME });
  for (const a of agents) store.upsertMember({ id: a.id, kind: 'agent', name: a.name });
  store.ensureConversation(GENERAL);
  for (const a of agents) store.ensureConversation(targetKey(`dm:@${a.id}`));
}

export interface ConversationServiceOptions {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly tracker: DeliveryTracker;
  readonly agentIds: () => ReadonlySet<string>;
  /** The runtime of each configured agent (the wake rows record it). */
  readonly runtimeOf: (agentId: string) => RuntimeKind;
  readonly maxMessageBytes: number;
  readonly onMessageStored: (message: MessageRecord) => void;
  /** issue 25: an operator message that wakes agents starts a fresh chain (teams/team-service.ts). */
  readonly chains?: { startChain(message: MessageRecord): WakeChainFields };
  readonly log?: DaemonLog;
}

export class ConversationService {
  constructor(private readonly o: ConversationServiceOptions) {}

  /** Canonical key of a target typed by a person, or an `invalid_target` error saying what is wrong. */
  parse(text: string): TargetKey {
    return this.#resolve(text).key;
  }

  #resolve(text: string): { key: TargetKey; target: Target } {
    const parsed = parseTarget(text);
    if (!parsed.ok) throw new ApiError('invalid_target', parsed.error.message);
    if (parsed.target.kind === 'dm' && !this.o.agentIds().has(parsed.target.member)) {
      throw new ApiError(
        'unknown_target',
        `There is no agent "@${parsed.target.member}" to talk to directly; agents: ${[...this.o.agentIds()].map((a) => `@${a}`).join(', ') || 'none configured'}.`,
      );
    }
    return { key: parsed.key, target: parsed.target };
  }

  /**
   * Stores an operator message and wakes every agent it addresses. `inboundKey` (an external
   * channel's id of the message, e.g. a Telegram update) makes it idempotent: the same key again
   * stores nothing, wakes nobody and answers `duplicate: true`.
   */
  post(
    targetText: string,
    content: string,
    options: { readonly inboundKey?: string } = {},
  ): { message: MessageRecord; wakeTokens: string[]; duplicate?: boolean } {
    const { key: target, target: parsedTarget } = this.#resolve(targetText);
    if (content.trim().length === 0) throw new ApiError('invalid_request', 'The message is empty.');
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.o.maxMessageBytes) {
      throw new ApiError(
        'content_too_large',
        `The message is ${bytes} bytes; at most ${this.o.maxMessageBytes} are allowed. Split it or attach less.`,
      );
    }
    const agents = [
      ...agentsToWake({ target: parsedTarget, authorKind: 'operator', content, agentIds: this.o.agentIds() }),
    ];
    // Atomic admission (issue 16): the message and every wake it causes are one transaction, so a
    // crash right after the append cannot keep the message and lose its wakes.
    const { message, wakes, status } = this.o.store.admitMessage(
      {
        target,
        authorId: OPERATOR_ID,
        authorKind: 'operator',
        content,
        // An inbound channel's own id (a Telegram update): the same input is stored and woken once.
        ...(options.inboundKey !== undefined ? { responseId: options.inboundKey } : {}),
      },
      (stored) => {
        // issue 25: in the same transaction, so a wake never exists without its chain.
        const chain = agents.length > 0 ? (this.o.chains?.startChain(stored) ?? {}) : {};
        return agents.map((agentId) => ({
          wakeToken: `wk_${randomUUID()}`,
          messageId: stored.id,
          agentId,
          runtime: this.o.runtimeOf(agentId),
          // contract §10.1: the names and model resolved now, as the wake status events carry them.
          ...this.o.lifecycle.wakeAgent(agentId),
          target,
          targetSeq: stored.seq,
          deliveryClass: 'visible_reply' as const,
          ...chain,
        }));
      },
    );
    if (status === 'already_sent') return { message, wakeTokens: [], duplicate: true };
    this.o.onMessageStored(message);
    // Watchdog spec B: kept FAILED_FINAL replies go out again, marked, on the next inbound message.
    void this.o.tracker
      .redeliver(target)
      .catch((err: unknown) => this.o.log?.warn('re-delivery failed', { target, error: String(err) }));
    for (const w of wakes) {
      this.o.lifecycle.enqueue(
        w.agentId,
        {
          wakeToken: w.wakeToken,
          messageId: message.id,
          target,
          targetSeq: message.seq,
          deliveryClass: 'visible_reply',
        },
        { recorded: true },
      );
    }
    return { message, wakeTokens: wakes.map((w) => w.wakeToken) };
  }
}
