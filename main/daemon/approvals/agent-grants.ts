/**
 * issue 29 "Rights only the operator gives": the "always" grants are the daemon's, kept in the
 * store (`grants`), and only they answer an approval without asking. A grant enters one of two
 * ways, both the operator's: an approval answered "Always" (approval-service.ts), or the operator
 * confirming a rule that appeared in agentteam.json (`agents.confirmRule`).
 *
 * agentteam.json's `allow` lists the grants for reading (written with each grant and revoke, a
 * minimal edit through the config source). A rule found there that the daemon never granted — a
 * hand edit, or an agent writing the file — is "needs your confirmation": shown on the agent,
 * never applied. Taking a rule out of the file takes the grant back (a rights reduction is never
 * a risk), so a Revoke by hand still works.
 */
import { Subject, skip, type Observable, type Subscription } from 'rxjs';
import { ApiError } from '../../../shared/api/contract.js';
import type { Config } from '../../../shared/config.js';
import { addAllowRule } from '../config/allow-rules.js';
import { revokeRuleEdits } from '../config/agent-edits.js';
import type { JsonEdit } from '../config/json-edit.js';
import type { DaemonLog } from '../daemon-log.js';
import type { GrantRecord } from '../store/index.js';

/** The store side (the Store's `grants` table). */
export interface GrantsTablePort {
  add(g: GrantRecord): boolean;
  remove(agentId: string, rule: string): boolean;
  ofAgent(agentId: string): GrantRecord[];
}

export interface AgentGrantsOptions {
  readonly table: GrantsTablePort;
  /** agentteam.json as it is now; `state$` emits on every reload (issue 17: watched). */
  readonly file: {
    readonly config: Config;
    readonly state$: Observable<unknown>;
    write(edits: (fresh: Config) => readonly JsonEdit[]): void;
  };
  readonly now?: () => Date;
  readonly log?: DaemonLog;
}

export class AgentGrants {
  readonly #o: AgentGrantsOptions;
  readonly #now: () => Date;
  readonly #changed = new Subject<string>();
  #sub: Subscription | null = null;
  /**
   * issue 30: each agent's granted rules as the table holds them, read once: the agent roster
   * asks twice per `agent.updated` (busy-team profile: 5 % of the daemon's main thread). This
   * class makes every change of the table, and forgets an agent's entry at each.
   */
  readonly #rules = new Map<string, readonly string[]>();
  /** An agent's grants (or the file's rules) changed: its view is re-emitted. */
  readonly changed$: Observable<string> = this.#changed.asObservable();

  constructor(options: AgentGrantsOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** Follows agentteam.json: a granted rule taken out of the file is taken back. */
  start(): void {
    this.#sub ??= this.#o.file.state$.pipe(skip(1)).subscribe(() => this.#followFile());
    this.#followFile();
  }

  /** The rules the daemon granted the agent: what answers its approvals unasked. */
  rules(agentId: string): string[] {
    let rules = this.#rules.get(agentId);
    if (rules === undefined) {
      rules = this.#o.table.ofAgent(agentId).map((g) => g.rule);
      this.#rules.set(agentId, rules);
    }
    return [...rules];
  }

  /** Rules agentteam.json lists for the agent that the daemon never granted: shown, never applied. */
  unconfirmed(agentId: string): string[] {
    const granted = new Set(this.rules(agentId));
    return this.#fileRules(agentId).filter((r) => !granted.has(r));
  }

  /**
   * An operator's "Always" (approval `approvalId`): granted in the store, then listed in
   * agentteam.json. Returns null, or why it could not be (then nothing was granted).
   */
  grant(agentId: string, rule: string, approvalId: string | null): string | null {
    const added = this.#o.table.add({ agentId, rule, grantedAt: this.#now().toISOString(), approvalId });
    this.#rules.delete(agentId);
    const failed = addAllowRule(this.#o.file, agentId, rule);
    if (failed !== null) {
      if (added) this.#o.table.remove(agentId, rule);
      this.#rules.delete(agentId);
      return failed;
    }
    this.#o.log?.info('grant added', { agentId, rule, approvalId });
    this.#changed.next(agentId);
    return null;
  }

  /** The operator confirms a rule agentteam.json lists but the daemon never granted: from now on it applies. */
  confirm(agentId: string, rule: string): void {
    const pending = this.unconfirmed(agentId);
    if (!pending.includes(rule))
      throw new ApiError(
        'unknown_rule',
        this.rules(agentId).includes(rule)
          ? `Agent "${agentId}" already has the rule ${JSON.stringify(rule)}; nothing was changed.`
          : `agentteam.json lists no rule ${JSON.stringify(rule)} for agent "${agentId}" to confirm; rules waiting for your confirmation: ${pending.length === 0 ? 'none' : pending.map((r) => JSON.stringify(r)).join(', ')}.`,
      );
    this.#o.table.add({ agentId, rule, grantedAt: this.#now().toISOString(), approvalId: null });
    this.#rules.delete(agentId);
    this.#o.log?.info('grant confirmed from agentteam.json', { agentId, rule });
    this.#changed.next(agentId);
  }

  /**
   * Takes a rule back (granted or waiting for confirmation): out of agentteam.json first (a file
   * that cannot be written changes nothing), then out of the store. An unknown rule is a clear error.
   */
  revoke(agentId: string, rule: string): void {
    const granted = this.rules(agentId).includes(rule);
    if (this.#fileRules(agentId).includes(rule)) this.#o.file.write((fresh) => revokeRuleEdits(fresh, agentId, rule));
    else if (!granted) {
      const known = [...this.rules(agentId), ...this.unconfirmed(agentId)];
      throw new ApiError(
        'unknown_rule',
        `Agent "${agentId}" has no "always" rule ${JSON.stringify(rule)}; its rules are: ${known.length === 0 ? 'none' : known.map((r) => JSON.stringify(r)).join(', ')}.`,
      );
    }
    if (this.#o.table.remove(agentId, rule)) this.#o.log?.info('grant revoked', { agentId, rule });
    this.#rules.delete(agentId);
    this.#changed.next(agentId);
  }

  dispose(): void {
    this.#sub?.unsubscribe();
    this.#changed.complete();
  }

  #fileRules(agentId: string): readonly string[] {
    return this.#o.file.config.agents.find((a) => a.id === agentId)?.allow ?? [];
  }

  /** Grants whose rule the file no longer lists (deleted by hand) are taken back. */
  #followFile(): void {
    for (const agent of this.#o.file.config.agents) {
      const listed = new Set(agent.allow);
      for (const g of this.#o.table.ofAgent(agent.id))
        if (!listed.has(g.rule) && this.#o.table.remove(agent.id, g.rule)) {
          this.#rules.delete(agent.id);
          this.#o.log?.info('grant revoked: its rule was taken out of agentteam.json', {
            agentId: agent.id,
            rule: g.rule,
          });
          this.#changed.next(agent.id);
        }
    }
  }
}
