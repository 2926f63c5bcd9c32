/**
 * issue 25: agents that ask each other, hand work back, and never loop.
 *
 * Every wake belongs to a chain: the operator message that started it. An agent's message that
 * addresses other agents (`@id`, mention-router.ts) wakes them in the message's own target with
 * the ordinary `visible_reply` wake (same FIFO, prompt, final-check, watchdog, delivery
 * confirmation, terminal status); when an asked agent's reply settles the wake another agent
 * caused, that agent gets the reply handed back as a `signal_only` wake (contract §9.1 workflow
 * callback: no final-check, no no-reply alert, it ends as its class, §9.3). Both are
 * agent-caused: each takes one hop of the chain's budget (`limits.agentHops`). At the budget the
 * message is stored and shown but wakes no one, and the chain pauses until the operator's
 * Continue grants another budget (and wakes what was held). Chains live in the store: a restart
 * resumes them with the hops they had.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, type Chain } from '../../../shared/api/contract.js';
import { DEFAULT_DAEMON_LIMITS } from '../../../shared/config.js';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { agentsToWake } from '../router/mention-router.js';
import type { ChainRecord, HeldWake, MessageRecord, Store, WakeRecord } from '../store/index.js';
import type { WakeChainFields } from '../wake/wake-ports.js';
import type { WakeLifecycle } from '../wake/wake-lifecycle.js';
import type { ApprovalAnswer, ApprovalAsk } from '../runtime/approval-port.js';

export interface TeamServiceOptions {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  /** `limits.agentHops`: agent-caused wakes per chain before it pauses; each Continue grants as many more. */
  readonly agentHops?: number;
  readonly agentIds: () => ReadonlySet<string>;
  readonly runtimeOf: (agentId: string) => RuntimeKind;
  /** An agent's display name now. */
  readonly displayName: (agentId: string) => string;
  /** A chain's hops or status changed (the `chain.updated` event, Telegram's status line). */
  readonly onChainChanged?: (chain: ChainRecord) => void;
  /**
   * issue 41: why the author's mention of an agent needs the operator's OK (teams/deputy-check.ts:
   * a broader policy, a workspace beyond the author's), or null. Absent: never (tests of chains alone).
   */
  readonly deputyCheck?: (authorId: string, agentId: string) => string | null;
  /** issue 41: asks the operator, as an approval of the author's (approvals/approval-service.ts). */
  readonly askOperator?: (authorId: string, ask: ApprovalAsk) => Promise<ApprovalAnswer>;
  readonly log?: DaemonLog;
}

/** What the communication service knows of a stored agent message when it routes it. */
export interface AgentMessageInput {
  readonly message: MessageRecord;
  /** The author's wakes this reply settled (`reply_sent`), as stored: the hand-backs come from them. */
  readonly settled: readonly WakeRecord[];
  /** The author's wakes being handled when it sent (runtime-visible rows): its chain comes from them. */
  readonly handling: readonly WakeRecord[];
}

export class TeamService {
  readonly #hops: number;

  constructor(private readonly o: TeamServiceOptions) {
    this.#hops = o.agentHops ?? DEFAULT_DAEMON_LIMITS.agentHops;
  }

  /** `limits.agentHops`. */
  get agentHops(): number {
    return this.#hops;
  }

  /**
   * An operator message that wakes agents starts a fresh chain (its own id). Called inside the
   * message's admission transaction; returns the chain fields of the wakes it causes.
   */
  startChain(message: MessageRecord): WakeChainFields {
    const chain = this.o.store.startChain(message.id, message.target, this.#hops);
    this.o.store.setMessageChain(message.id, chain.id);
    return {
      chainId: chain.id,
      cause: 'operator',
      hop: 0,
      hopBudget: chain.budget,
      askedById: null,
      askedByName: null,
    };
  }

  /**
   * Routes a stored agent message (sent once: a retried `already_sent` is never routed again):
   * the agents it addresses (never its author, each once) get an `agent_mention` wake, and the
   * agents whose wakes of the author this reply settled get it handed back (`hand_back`,
   * `signal_only`) unless the message addresses them anyway. Within the chain's budget; the rest
   * is held and the chain pauses. Returns the wake tokens admitted.
   */
  agentMessage(input: AgentMessageInput): string[] {
    const { message } = input;
    const author = message.authorId;
    const parsed = parseTarget(message.target);
    if (!parsed.ok) return [];
    const mentioned = agentsToWake({
      target: parsed.target,
      authorKind: 'agent',
      authorId: author,
      content: message.content,
      agentIds: this.o.agentIds(),
    });
    const handBack: string[] = [];
    for (const w of input.settled) {
      const asker = w.askedById ?? null;
      if (w.cause !== 'agent_mention' || asker === null || asker === author) continue;
      if (w.target !== message.target || mentioned.includes(asker) || handBack.includes(asker)) continue;
      if (this.o.agentIds().has(asker)) handBack.push(asker);
    }
    // issue 41: a mention that would make the woken agent the author's deputy waits for the operator's OK.
    const deputies = mentioned
      .map((agentId) => ({ agentId, reason: this.o.deputyCheck?.(author, agentId) ?? null }))
      .filter((d): d is { agentId: string; reason: string } => d.reason !== null);
    const candidates: HeldWake[] = [
      ...mentioned
        .filter((agentId) => !deputies.some((d) => d.agentId === agentId))
        .map((agentId) => ({ agentId, cause: 'agent_mention' as const })),
      ...handBack.map((agentId) => ({ agentId, cause: 'hand_back' as const })),
    ];
    const chainId = this.#chainOf(input) ?? this.#ownChainOf(author) ?? this.#newestChainOf(message.target);
    // A chain starts only from an operator message: an agent message that wakes no one and belongs to none stays unchained.
    if (chainId === null && candidates.length === 0 && deputies.length === 0) return [];
    const { admitted, chain, changed } = this.o.store.transaction(() => {
      const existing =
        chainId === null
          ? undefined
          : (this.o.store.getChain(chainId) ?? this.o.store.startChain(chainId, message.target, this.#hops));
      // An agent message outside any chain (nothing ever woke its author) starts one of its own.
      const start = existing ?? this.o.store.startChain(message.id, message.target, this.#hops);
      this.o.store.setMessageChain(message.id, start.id);
      return this.#admit(start, message, author, candidates);
    });
    if (changed) this.o.onChainChanged?.(chain);
    this.#enqueue(admitted);
    for (const d of deputies) this.#askForDeputy(chain.id, message, author, d.agentId, d.reason);
    return admitted.map((w) => w.wakeToken);
  }

  /**
   * issue 41: the operator is asked whether `author` may wake `agentId`; allowed, the wake is
   * admitted in the chain as any mention (a hop of its budget); denied, expired or cancelled, no
   * one is woken (the message stays stored and shown).
   */
  #askForDeputy(chainId: string, message: MessageRecord, author: string, agentId: string, reason: string): void {
    const name = this.o.displayName(agentId);
    const ask: ApprovalAsk = {
      kind: 'other',
      tool: 'Wake agent',
      summary: `wake ${name} (${agentId}) in ${message.target}: ${reason}`,
      detail: message.content,
      // Only "once": a standing rule would let the author use the broader agent unasked from then on.
      rule: null,
    };
    const asked = this.o.askOperator?.(author, ask) ?? Promise.resolve(null);
    void asked.then(
      (answer) => {
        if (answer?.decision !== 'allow') {
          this.o.log?.info('deputy wake not allowed', {
            author,
            agentId,
            messageId: message.id,
            status: answer?.status,
          });
          return;
        }
        const chain = this.o.store.getChain(chainId);
        if (chain === undefined || !this.o.agentIds().has(agentId)) return;
        const r = this.o.store.transaction(() =>
          this.#admit(chain, message, author, [{ agentId, cause: 'agent_mention' }]),
        );
        if (r.changed) this.o.onChainChanged?.(r.chain);
        this.#enqueue(r.admitted);
      },
      (err: unknown) => this.o.log?.error('deputy wake failed', { author, agentId, error: String(err) }),
    );
  }

  /**
   * The operator's Continue: the paused chain (by id, else the newest paused one of `target`,
   * else the newest paused one anywhere) gets another `limits.agentHops`, and the wakes held at
   * the pause are admitted against it.
   */
  continueChain(request: { readonly chainId?: string; readonly target?: TargetKey }): ChainRecord {
    const chain = this.#pausedChain(request);
    const { admitted, chain: after } = this.o.store.transaction(() => {
      const held = chain.heldFor;
      const heldMessage = chain.heldMessageId === null ? undefined : this.o.store.getMessage(chain.heldMessageId);
      const granted: ChainRecord = {
        ...chain,
        status: 'open',
        budget: chain.budget + this.#hops,
        continues: chain.continues + 1,
        heldMessageId: null,
        heldFor: [],
        pausedAt: null,
      };
      const saved = this.o.store.saveChain(granted);
      if (heldMessage === undefined || held.length === 0) return { admitted: [] as WakeRecord[], chain: saved };
      const r = this.#admit(saved, heldMessage, heldMessage.authorId, held);
      return { admitted: r.admitted, chain: r.chain };
    });
    this.o.log?.info('chain continued by the operator', { chainId: after.id, budget: after.budget });
    this.o.onChainChanged?.(after);
    this.#enqueue(admitted);
    return after;
  }

  listChains(filter: { readonly target?: TargetKey; readonly pausedOnly?: boolean; readonly limit?: number }): Chain[] {
    return this.o.store.listChains(filter).map((c) => this.toChain(c));
  }

  /** A stored chain as the API shows it. */
  toChain(c: ChainRecord): Chain {
    return {
      chainId: c.id,
      target: c.target,
      status: c.status,
      hops: c.hops,
      budget: c.budget,
      continues: c.continues,
      heldMessageId: c.heldMessageId,
      heldFor: c.heldFor.map((h) => ({ agentId: h.agentId, name: this.o.displayName(h.agentId) })),
      startedAt: c.startedAt,
      pausedAt: c.pausedAt,
      updatedAt: c.updatedAt,
    };
  }

  #pausedChain(request: { readonly chainId?: string; readonly target?: TargetKey }): ChainRecord {
    if (request.chainId !== undefined) {
      const chain = this.o.store.getChain(request.chainId);
      if (chain === undefined)
        throw new ApiError('unknown_chain', `There is no chain "${request.chainId}"; see \`agentteam chain list\`.`);
      if (chain.status !== 'paused')
        throw new ApiError(
          'not_paused',
          `Chain "${chain.id}" is not paused (${chain.hops} of ${chain.budget} hops used).`,
        );
      return chain;
    }
    const [newest] = this.o.store.listChains({
      ...(request.target === undefined ? {} : { target: request.target }),
      pausedOnly: true,
      limit: 1,
    });
    if (newest === undefined)
      throw new ApiError(
        'not_paused',
        request.target === undefined
          ? 'No chain of agents is paused; nothing to continue.'
          : `No chain of agents is paused in "${request.target}"; nothing to continue.`,
      );
    return newest;
  }

  /**
   * The chain of an agent message: that of a wake the reply settled, else of a wake of its
   * target being handled, else of any wake being handled; null when none has one.
   */
  #chainOf(input: AgentMessageInput): string | null {
    const first = (ws: readonly WakeRecord[]) => ws.find((w) => (w.chainId ?? null) !== null)?.chainId ?? null;
    return (
      first(input.settled) ??
      first(input.handling.filter((w) => w.target === input.message.target)) ??
      first(input.handling)
    );
  }

  /**
   * issue 41: the chain of the author's newest wake, in any conversation — an agent's send outside
   * its turn, even to a conversation it starts, spends the budget of the chain that last woke it
   * instead of starting a fresh one; null when nothing ever woke it.
   */
  #ownChainOf(author: string): string | null {
    return (
      this.o.store.listWakes({ agentId: author, order: 'newest', limit: 20 }).find((w) => (w.chainId ?? null) !== null)
        ?.chainId ?? null
    );
  }

  /** The newest chain of a target (an agent message whose wake already settled belongs to it); null when none. */
  #newestChainOf(target: TargetKey): string | null {
    return this.o.store.listChains({ target, limit: 1 })[0]?.id ?? null;
  }

  /** Inside a transaction: admits what the budget allows, holds the rest and pauses the chain. */
  #admit(
    chain: ChainRecord,
    message: MessageRecord,
    author: string,
    candidates: readonly HeldWake[],
  ): { admitted: WakeRecord[]; chain: ChainRecord; changed: boolean } {
    let hops = chain.hops;
    const open = chain.status === 'open';
    const admitted: WakeRecord[] = [];
    const held: HeldWake[] = [];
    const askedByName = this.o.displayName(author);
    for (const c of candidates) {
      if (!open || hops >= chain.budget) {
        held.push(c);
        continue;
      }
      hops += 1;
      admitted.push(
        this.o.store.insertWake({
          wakeToken: `wk_${randomUUID()}`,
          messageId: message.id,
          agentId: c.agentId,
          runtime: this.o.runtimeOf(c.agentId),
          ...this.o.lifecycle.wakeAgent(c.agentId),
          target: message.target,
          targetSeq: message.seq,
          // contract §9.1: a workflow callback is `signal_only`; a mention asks for a visible reply.
          deliveryClass: c.cause === 'hand_back' ? 'signal_only' : 'visible_reply',
          chainId: chain.id,
          cause: c.cause,
          hop: hops,
          hopBudget: chain.budget,
          askedById: author,
          askedByName,
        }),
      );
    }
    const pause = open && held.length > 0;
    if (hops === chain.hops && !pause) return { admitted, chain, changed: false };
    const next: ChainRecord = {
      ...chain,
      hops,
      ...(pause
        ? { status: 'paused' as const, heldMessageId: message.id, heldFor: held, pausedAt: new Date().toISOString() }
        : {}),
    };
    if (pause)
      this.o.log?.info('chain paused at its hop budget', {
        chainId: chain.id,
        hops,
        budget: chain.budget,
        messageId: message.id,
        held: held.map((h) => h.agentId),
      });
    return { admitted, chain: this.o.store.saveChain(next), changed: true };
  }

  #enqueue(wakes: readonly WakeRecord[]): void {
    for (const w of wakes)
      this.o.lifecycle.enqueue(
        w.agentId,
        {
          wakeToken: w.wakeToken,
          messageId: w.messageId,
          target: w.target,
          targetSeq: w.targetSeq,
          deliveryClass: w.deliveryClass,
        },
        { recorded: true },
      );
  }
}
