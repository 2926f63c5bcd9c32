/**
 * Approvals as first-class daemon objects (issue 14). A runtime's permission question
 * (approval-port.ts) becomes a durable `approvals` row the operator answers from an authenticated
 * surface (IPC gate, token WebSocket, CLI — never an agent through MCP):
 *
 * - an agent's "always" grants (issue 29: the daemon's own, in the store — approvals/agent-grants.ts;
 *   a rule merely written into agentteam.json is never one) and this session's rules answer at
 *   once, recorded;
 * - otherwise the row is `pending`, the turn's silence clock pauses (`approval.wait` on the bus:
 *   the wait is operator-visible, DESIGN.md "decided choices"), and the operator's answer, the
 *   expiry (`approvalTimeoutSeconds`, a deny whose reason the agent sees) or a runtime/daemon
 *   restart (`cancelled`) settles it — exactly once (the store's `WHERE status = 'pending'`);
 * - `always` grants exactly the rule that was shown (stored, and listed in the agent's config).
 *
 * Expiry timers run on the injected RxJS scheduler (virtual time in tests).
 */
import { randomUUID } from 'node:crypto';
import { Subject, asyncScheduler, timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { ApprovalDecision, ApprovalScope, ApprovalStatus } from '../../../shared/approvals.js';
import { ApiError } from '../../../shared/api/contract.js';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ApprovalAnswer, ApprovalAsk } from '../runtime/approval-port.js';
import type { ApprovalInput, ApprovalRecord, ApprovalSettle } from '../store/index.js';

/** The store side (the Store's `approvals` table). */
export interface ApprovalTablePort {
  insert(a: ApprovalInput): void;
  settle(s: ApprovalSettle): boolean;
  get(id: string): ApprovalRecord | undefined;
  list(status: ApprovalStatus | null, limit: number | undefined, wakeToken?: string | null): ApprovalRecord[];
  pending(): ApprovalRecord[];
}

/** Who asks: the agent, its runtime, the running turn and the wakes it carries. */
export interface ApprovalOrigin {
  readonly agentId: string;
  readonly runtime: string;
  readonly turnId: string | null;
  readonly wakeTokens: readonly string[];
}

export interface ApprovalPolicyOf {
  readonly approvalTimeoutSeconds: number;
  readonly allow: readonly string[];
}

export interface ApprovalServiceOptions {
  readonly table: ApprovalTablePort;
  readonly bus?: HookBus;
  /** The agent's timeout (agentteam.json) and the rules the daemon granted it (issue 29: the store). */
  readonly policyOf: (agentId: string) => ApprovalPolicyOf;
  /** `always`: grants the rule (approval `approvalId`); returns an error text, or null. */
  readonly persistRule?: (agentId: string, rule: string, approvalId: string) => string | null;
  readonly scheduler?: SchedulerLike;
  readonly now?: () => Date;
  readonly log?: DaemonLog;
}

interface Waiter {
  readonly record: ApprovalRecord;
  readonly resolve: (answer: ApprovalAnswer) => void;
  readonly expiry: Subscription;
}

export class ApprovalService {
  readonly #o: ApprovalServiceOptions;
  readonly #scheduler: SchedulerLike;
  readonly #now: () => Date;
  readonly #waiting = new Map<string, Waiter>();
  /** `session` rules per agent, forgotten when its runtime restarts (a new session). */
  readonly #sessionRules = new Map<string, Set<string>>();
  readonly #changes = new Subject<ApprovalRecord>();
  /** Every created or settled request (API events, OS notifications). */
  readonly changes$ = this.#changes.asObservable();

  constructor(options: ApprovalServiceOptions) {
    this.#o = options;
    this.#scheduler = options.scheduler ?? asyncScheduler;
    this.#now = options.now ?? (() => new Date());
  }

  /** A daemon restart: requests left pending by the previous daemon are cancelled (no chip waits forever). */
  cancelStale(): number {
    const stale = this.#o.table.pending().filter((r) => !this.#waiting.has(r.id));
    for (const r of stale) this.#settle(r, 'cancelled', null, 'the AgentTeam daemon restarted before an answer');
    if (stale.length > 0) this.#o.log?.info('approvals cancelled by the restart', { count: stale.length });
    return stale.length;
  }

  /** The agent's runtime asks; resolves with the operator's answer, an expiry or a cancel. */
  request(origin: ApprovalOrigin, ask: ApprovalAsk): Promise<ApprovalAnswer> {
    const policy = this.#o.policyOf(origin.agentId);
    const createdAt = this.#now();
    const record: ApprovalRecord = {
      id: `ap_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      agentId: origin.agentId,
      runtime: origin.runtime,
      turnId: origin.turnId,
      wakeTokens: [...origin.wakeTokens],
      kind: ask.kind,
      tool: ask.tool,
      summary: ask.summary,
      detail: ask.detail,
      rule: ask.rule,
      createdAt: createdAt.toISOString(),
      expiresAt: new Date(createdAt.getTime() + policy.approvalTimeoutSeconds * 1000).toISOString(),
      status: 'pending',
      scope: null,
      reason: null,
      answeredAt: null,
    };
    this.#o.table.insert(record);
    // ONE source for `always` rules: the daemon's grants as they are now (`policyOf` reads the store).
    // No copy is kept here, so a rule revoked in the UI or taken out of the file stops answering at once.
    // issue 29: a request with no exact rule is never answered by a rule.
    const standing = ask.rule !== null && policy.allow.includes(ask.rule);
    const session = ask.rule !== null && this.#sessionRules.get(origin.agentId)?.has(ask.rule) === true;
    if (standing || session) {
      // Recorded, never asked: the rule the operator granted answers (listed on the agent).
      this.#settle(record, 'allowed', standing ? 'always' : 'session', null);
      return Promise.resolve({
        decision: 'allow',
        scope: standing ? 'always' : 'session',
        status: 'allowed',
        reason: null,
      });
    }
    return new Promise((resolve) => {
      const expiry = timer(policy.approvalTimeoutSeconds * 1000, this.#scheduler).subscribe(() =>
        this.#expire(record.id, policy.approvalTimeoutSeconds),
      );
      this.#waiting.set(record.id, { record, resolve, expiry });
      this.#wait(record, true);
      this.#o.log?.info('approval requested', { id: record.id, agentId: record.agentId, tool: record.tool });
      // Published once its waiter is registered: an answer given while it is published reaches the runtime.
      this.#changes.next(record);
    });
  }

  /** The operator answers (IPC gate, token WebSocket, CLI). */
  answer(id: string, decision: ApprovalDecision, scope: ApprovalScope = 'once', reason?: string): ApprovalRecord {
    const record = this.#o.table.get(id);
    if (record === undefined) throw new ApiError('unknown_approval', `There is no approval "${id}".`);
    if (record.status !== 'pending')
      throw new ApiError('approval_settled', `Approval "${id}" is already ${record.status}; nothing was changed.`);
    const rule = record.rule;
    if (decision === 'allow' && scope !== 'once' && rule === null)
      throw new ApiError(
        'invalid_request',
        `Approval "${id}" can only be allowed once: what it asks for (${record.tool}) has no exact rule to allow for the ${scope === 'always' ? 'future' : 'session'}; nothing was changed.`,
      );
    if (decision === 'allow' && scope === 'always' && rule !== null) {
      const failed = this.#o.persistRule?.(record.agentId, rule, record.id) ?? null;
      if (failed !== null)
        throw new ApiError('unavailable', `The rule ${rule} could not be saved (${failed}); nothing was changed.`);
    }
    if (decision === 'allow' && scope === 'session' && rule !== null) {
      let rules = this.#sessionRules.get(record.agentId);
      if (rules === undefined) this.#sessionRules.set(record.agentId, (rules = new Set()));
      rules.add(rule);
    }
    const text = reason?.trim() ? reason.trim() : null;
    const denyReason = decision === 'deny' ? (text ?? 'The operator denied this request.') : null;
    return this.#settle(record, decision === 'allow' ? 'allowed' : 'denied', scope, denyReason);
  }

  get(id: string): ApprovalRecord | undefined {
    return this.#o.table.get(id);
  }

  /**
   * The agent's pending requests, oldest first, from the waiters (issue 30: asked per wake event by
   * the Team board; every pending request has a waiter once `cancelStale` ran at start).
   */
  pendingOf(agentId: string): ApprovalRecord[] {
    const out: ApprovalRecord[] = [];
    for (const w of this.#waiting.values()) if (w.record.agentId === agentId) out.push(w.record);
    return out;
  }

  list(filter: { status?: ApprovalStatus; limit?: number; wakeToken?: string } = {}): ApprovalRecord[] {
    return this.#o.table.list(filter.status ?? null, filter.limit, filter.wakeToken ?? null);
  }

  /** The agent's runtime exited or restarted: its pending requests are cancelled, its session rules forgotten. */
  cancelAgent(agentId: string, reason: string): void {
    this.#sessionRules.delete(agentId);
    for (const w of [...this.#waiting.values()])
      if (w.record.agentId === agentId) this.#settle(w.record, 'cancelled', null, reason);
  }

  /** Daemon stop: every pending request is cancelled (a restart would cancel it anyway). */
  dispose(): void {
    for (const w of [...this.#waiting.values()])
      this.#settle(w.record, 'cancelled', null, 'the AgentTeam daemon stopped');
    this.#changes.complete();
  }

  #expire(id: string, seconds: number): void {
    const w = this.#waiting.get(id);
    if (w === undefined) return;
    this.#settle(
      w.record,
      'expired',
      null,
      `No answer from the operator within ${seconds} s: the request was denied. Do not retry it; tell the operator what you needed.`,
    );
  }

  #settle(
    record: ApprovalRecord,
    status: Exclude<ApprovalStatus, 'pending'>,
    scope: ApprovalScope | null,
    reason: string | null,
  ): ApprovalRecord {
    const answeredAt = this.#now().toISOString();
    const settled = this.#o.table.settle({ id: record.id, status, scope, reason, answeredAt });
    const after: ApprovalRecord = settled
      ? { ...record, status, scope, reason, answeredAt }
      : (this.#o.table.get(record.id) ?? record);
    const w = this.#waiting.get(record.id);
    if (w !== undefined) {
      this.#waiting.delete(record.id);
      w.expiry.unsubscribe();
      this.#wait(record, false);
      w.resolve({
        decision: after.status === 'allowed' ? 'allow' : 'deny',
        scope: after.scope ?? 'once',
        status: after.status === 'pending' ? 'cancelled' : after.status,
        reason: after.reason,
      });
    }
    if (settled) {
      this.#o.log?.info('approval settled', { id: record.id, status, scope });
      this.#changes.next(after);
    }
    return after;
  }

  #wait(record: ApprovalRecord, waiting: boolean): void {
    if (record.turnId !== null)
      this.#o.bus?.emit('approval.wait', { turnId: record.turnId, agentId: record.agentId, waiting });
  }
}
