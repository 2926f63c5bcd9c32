/**
 * Store records → the shapes of the shared API contract (shared/api/contract.ts). Pure.
 * Wake failure details pass through as stored: bounded, never runtime text (contract §6.5).
 */
import type {
  Agent,
  Approval,
  AuditRecord as ApiAuditRecord,
  Conversation,
  Message,
  PromptInput,
  Wake,
  WakeChanges,
  WakeEvent,
} from '../../../shared/api/contract.js';
import type { AgentConfig } from '../../../shared/config.js';
import { parseTarget } from '../../../shared/target.js';
import { agentsToWake } from '../router/mention-router.js';
import type {
  ApprovalRecord,
  AuditRecord,
  ConversationRecord,
  MessageRecord,
  PromptInputRecord,
  ReactionRecord,
  WakeChangesRecord,
  WakeEventRecord,
  WakeRecord,
  Store,
} from '../store/index.js';

export function toConversation(c: ConversationRecord): Conversation {
  return { target: c.target, kind: c.kind, title: c.target, parent: c.parent, lastSeq: c.lastSeq };
}

/**
 * issue 25: the agents an agent's message addressed (`@id`, and the agent of a DM), never its
 * author — woken or not (a paused chain wakes no one). `agents`: every agent member, id → display name.
 */
export function addressedOf(
  m: Pick<MessageRecord, 'authorId' | 'authorKind' | 'content' | 'target'>,
  agents: ReadonlyMap<string, string>,
): { agentId: string; name: string }[] {
  if (m.authorKind !== 'agent') return [];
  const parsed = parseTarget(m.target);
  if (!parsed.ok) return [];
  const ids = agentsToWake({
    target: parsed.target,
    authorKind: 'agent',
    authorId: m.authorId,
    content: m.content,
    agentIds: new Set(agents.keys()),
  });
  return ids.map((agentId) => ({ agentId, name: agents.get(agentId) ?? agentId }));
}

export function toMessage(
  m: MessageRecord,
  reactions: readonly ReactionRecord[] = [],
  agents: ReadonlyMap<string, string> = new Map(),
): Message {
  return {
    id: m.id,
    target: m.target,
    seq: m.seq,
    authorId: m.authorId,
    authorName: m.authorName,
    authorKind: m.authorKind,
    content: m.content,
    createdAt: m.createdAt,
    responseId: m.responseId,
    redelivered: m.redelivered,
    reactions: reactions.map((r) => ({ emoji: r.emoji, authorId: r.authorId, authorName: r.authorName })),
    chainId: m.chainId ?? null,
    addressed: addressedOf(m, agents),
  };
}

/**
 * `displayName` is the agent's display name now: used only for a wake journaled without the
 * §10.1 names (before issue 24); the names resolved when the wake was accepted win.
 */
/**
 * A wake for the API. `pausedUntil` (issue 27): the reset of the agent's stored pause, given while
 * the wake is `paused` (`pausedUntilOf`).
 */
export function toWake(w: WakeRecord, displayName: string, pausedUntil: string | null = null): Wake {
  return {
    wakeToken: w.wakeToken,
    messageId: w.messageId,
    agentId: w.agentId,
    agentName: w.agentDisplayName ?? displayName,
    agentTechnicalName: w.agentName ?? w.agentId,
    runtime: w.runtime,
    model: w.model,
    target: w.target,
    status: w.status,
    reason: w.reason,
    detail: w.detail,
    beacons: w.beacons,
    escalated: w.escalated,
    lastBeaconAt: w.lastBeaconAt,
    finalCheck: w.finalCheck,
    createdAt: w.createdAt,
    endedAt: w.endedAt,
    recoveries: w.recoveries,
    chainId: w.chainId ?? null,
    cause: w.cause ?? 'operator',
    hop: w.hop ?? 0,
    hopBudget: w.hopBudget ?? 0,
    askedById: w.askedById ?? null,
    askedByName: w.askedByName ?? null,
    pausedUntil: w.status === 'paused' ? pausedUntil : null,
  };
}

/** issue 27: when the pause of a `paused` wake's agent ends (its stored pause, agent_pauses), else null. */
export function pausedUntilOf(store: Pick<Store, 'pauses'>, w: Pick<WakeRecord, 'status' | 'agentId'>): string | null {
  if (w.status !== 'paused') return null;
  const resetsAt = store.pauses.get(w.agentId)?.resetsAt;
  return resetsAt === null || resetsAt === undefined ? null : new Date(resetsAt).toISOString();
}

export function toAudit(a: AuditRecord, agentName: string): ApiAuditRecord {
  return {
    id: a.id,
    agentId: a.agentId,
    agentName,
    kind: a.kind,
    target: a.target,
    messageId: a.messageId,
    wakeTokens: [...a.wakeTokens],
    at: a.at,
  };
}

export function toWakeEvent(e: WakeEventRecord): WakeEvent {
  return { wakeToken: e.wakeToken, kind: e.kind, status: e.status, reason: e.reason, detail: e.detail, at: e.at };
}

export function toPromptInput(p: PromptInputRecord): PromptInput {
  return {
    id: p.id,
    seq: p.seq,
    agentId: p.agentId,
    wakeTokens: [...p.wakeTokens],
    kind: p.kind,
    text: p.text,
    at: p.at,
  };
}

/** What the agent view adds to the config: the runtime's words (issue 39) always, the rest when the caller knows it. */
export type AgentMore = Partial<
  Pick<
    Agent,
    'readiness' | 'cwd' | 'auth' | 'allow' | 'unconfirmedAllow' | 'isolation' | 'worktree' | 'rssBytes' | 'cpuPercent'
  >
> &
  Pick<Agent, 'runtimeWords'>;

/**
 * `more`: issue 15's readiness, workspace (absolute) and sign-in mode, and the "always" rules as
 * agentteam.json has them now, when the caller knows them. The permission policy (issue 14) comes
 * from the agent's config itself.
 */
export function toAgent(a: AgentConfig, state: Agent['state'], more: AgentMore): Agent {
  return {
    id: a.id,
    name: a.name,
    runtime: a.runtime,
    model: a.model,
    state,
    demo: a.runtime === 'demo',
    preset: a.preset ?? null,
    cwd: a.cwd,
    permissions: a.permissions,
    allow: [...a.allow],
    baseBranch: a.baseBranch,
    ...more,
  };
}

export function toApproval(r: ApprovalRecord, agentName: string): Approval {
  return {
    id: r.id,
    agentId: r.agentId,
    agentName,
    runtime: r.runtime,
    wakeTokens: [...r.wakeTokens],
    kind: r.kind,
    tool: r.tool,
    summary: r.summary,
    detail: r.detail,
    rule: r.rule,
    status: r.status,
    scope: r.scope,
    reason: r.reason,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    answeredAt: r.answeredAt,
  };
}

/** issue 26: a wake's stored changes as the API shows them; `none` for a wake that never reached its runtime. */
export function toWakeChanges(wakeToken: string, agentId: string, r: WakeChangesRecord | undefined): WakeChanges {
  if (r === undefined)
    return {
      wakeToken,
      agentId,
      state: 'none',
      workspace: null,
      reason: null,
      files: [],
      startedAt: null,
      endedAt: null,
    };
  return {
    wakeToken,
    agentId,
    state: r.state,
    workspace: r.workspace,
    reason: r.reason,
    files: r.files.map((f) => ({ ...f })),
    startedAt: r.startedAt,
    endedAt: r.endedAt,
  };
}
