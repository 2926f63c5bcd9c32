/**
 * The daemon side of the shared API contract: one handler per call (ApiHandlers). Both
 * transports (Electron IPC gate, serve's WebSocket bridge) validate requests with the contract's
 * zod schemas before calling these; expected failures throw `ApiError` with a stable code.
 */
import {
  ApiError,
  type Agent,
  type ApiHandlers,
  type InstallableRuntime,
  type Settings,
} from '../../../shared/api/contract.js';
import { reviewCommentText } from '../../../shared/changes.js';
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import type { Store } from '../store/index.js';
import type {
  AgentSettingsPort,
  ApprovalsPort,
  ChangesPort,
  ConversationsPort,
  TeamsPort,
  TurnsPort,
  UsagePort,
  WorktreesPort,
} from './api-ports.js';
import { createThreadApi } from './thread-api.js';
import { checkOnePosition, createSearchApi, listWindow } from './search-api.js';
import {
  toApproval,
  toAudit,
  toConversation,
  toMessage,
  toPromptInput,
  pausedUntilOf,
  toWake,
  toWakeChanges,
  toWakeEvent,
} from './api-mappers.js';

export interface DaemonApiDeps {
  readonly store: Store;
  readonly conversations: ConversationsPort;
  readonly agents: () => Agent[];
  /**
   * issue 15: re-checks readiness (all agents, or one); issue 40 (Retry): and starts anew an agent
   * whose runtime is down. Rejects an unknown id with `invalid_request`.
   */
  readonly checkAgents?: (agentId?: string) => Promise<void>;
  readonly agentName: (agentId: string) => string;
  /** issue 39: the coding CLIs a person can install (runtime/registry.ts `installableRuntimes`). */
  readonly installable: () => InstallableRuntime[];
  readonly settings: () => Settings;
  readonly updateSettings: (patch: {
    language?: Settings['language'];
    channel?: string;
    settings?: unknown;
  }) => Settings;
  /** issue 39: `channels.call`, every channel plug-in's own calls (channels/registry.ts; Telegram's health and bindings). */
  readonly channels: Pick<ApiHandlers, 'channels.call'>;
  /** issue 14: answered only through this API (IPC gate, token WebSocket, CLI); MCP has no such tool. */
  readonly approvals?: ApprovalsPort;
  /** issue 14: an agent's workspace / policy from the UI, and revoking its "always" rules (operator only). */
  readonly agentSettings?: AgentSettingsPort;
  /** issue 29: the operator's Stop of a working turn (operator only, like approvals). */
  readonly turns?: TurnsPort;
  /** issue 26: an isolated agent's changes since its base (worktrees/wake-changes.ts). */
  readonly changes?: ChangesPort;
  /** issue 25: chains (Continue is operator only) and the Team board. */
  readonly teams?: TeamsPort;
  /** issue 26: an isolated agent's worktree: its changes, merge and discard (the last two operator only). */
  readonly worktrees?: WorktreesPort;
  /** issue 27: a paused agent's Try now and Cancel (operator only). */
  readonly usagePause?: UsagePausePort;
  /** issue 27: usage, limit windows and budgets. */
  readonly usage?: UsagePort;
}

/** issue 27: the usage-pause service as the API uses it (usage/usage-pause-service.ts). */
export interface UsagePausePort {
  tryNow(agentId: string): boolean;
  cancel(agentId: string): readonly string[];
}

const DEFAULT_PAGE = 100;

export function createDaemonApi(d: DaemonApiDeps): ApiHandlers {
  const existing = (text: string): TargetKey => {
    const parsed = parseTarget(text);
    if (!parsed.ok) throw new ApiError('invalid_target', parsed.error.message);
    return parsed.key;
  };
  const agentSettings = () => {
    if (d.agentSettings === undefined) throw new ApiError('unavailable', 'This daemon does not edit agents.');
    return d.agentSettings;
  };
  /** The agent as the API shows it, after a change. */
  const agent = (agentId: string): Agent => {
    const found = d.agents().find((a) => a.id === agentId);
    if (found === undefined) throw new ApiError('unknown_agent', `There is no agent "${agentId}"; see agentteam.json.`);
    return found;
  };
  const approvals = (): ApprovalsPort => {
    if (d.approvals === undefined) throw new ApiError('unavailable', 'This daemon does not handle approvals.');
    return d.approvals;
  };
  const threads = createThreadApi(d.store, (text) => d.conversations.parse(text));
  const teams = (): TeamsPort => {
    if (d.teams === undefined) throw new ApiError('unavailable', 'This daemon does not follow agent chains.');
    return d.teams;
  };
  const worktrees = (): WorktreesPort => {
    if (d.worktrees === undefined)
      throw new ApiError('unavailable', 'This daemon does not isolate agents in worktrees.');
    return d.worktrees;
  };
  const usage = (): UsagePort => {
    if (d.usage === undefined) throw new ApiError('unavailable', 'This daemon does not record usage.');
    return d.usage;
  };
  return {
    'conversations.list': async ({ target }) => {
      if (target === undefined) return d.store.listConversations().map(toConversation);
      const one = d.store.getConversation(existing(target));
      return one === undefined ? [] : [toConversation(one)];
    },
    'conversations.create': async ({ target }) =>
      toConversation(d.store.ensureConversation(d.conversations.parse(target))),
    'messages.list': async ({ target, beforeSeq, afterSeq, aroundSeq, limit }) => {
      const key = existing(target);
      const page = limit ?? DEFAULT_PAGE;
      // issue 17: a window opened around a search result, or paging forward from one.
      checkOnePosition({ beforeSeq, afterSeq, aroundSeq });
      if (afterSeq !== undefined || aroundSeq !== undefined)
        return listWindow(d.store, key, page, { afterSeq, aroundSeq });
      // One extra row tells whether an older page exists.
      const rows = d.store.listMessages(key, {
        ...(beforeSeq !== undefined ? { beforeSeq } : { beforeSeq: Number.MAX_SAFE_INTEGER }),
        limit: page + 1,
      });
      const hasMore = rows.length > page;
      const shown = hasMore ? rows.slice(rows.length - page) : rows;
      const reactions = d.store.reactionsOf(shown.map((m) => m.id));
      const agents = d.store.agentNames();
      return { messages: shown.map((m) => toMessage(m, reactions.get(m.id), agents)), hasMore };
    },
    'messages.send': async ({ target, content }) => {
      const { message } = d.conversations.post(target, content);
      return { messageId: message.id, seq: message.seq, target: message.target };
    },
    'wakes.list': async ({ target, activeOnly, limit }) => {
      const rows = d.store.listWakes({
        ...(target !== undefined ? { target: existing(target) } : {}),
        ...(activeOnly ? { activeOnly } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      return rows.map((w) => toWake(w, d.agentName(w.agentId), pausedUntilOf(d.store, w)));
    },
    'wakes.inspect': async ({ wakeToken }) => {
      const wake = d.store.getWake(wakeToken);
      if (wake === undefined) throw new ApiError('unknown_wake', `There is no wake "${wakeToken}".`);
      return {
        // issue 27: the usage the runtime reported for this wake's turns.
        usage: d.usage?.wake(wakeToken) ?? null,
        wake: toWake(wake, d.agentName(wake.agentId), pausedUntilOf(d.store, wake)),
        events: d.store.listWakeEvents(wakeToken).map(toWakeEvent),
        promptInputs: d.store.listPromptInputs(wakeToken).map(toPromptInput),
        ...d.store.recoveryLinks(wakeToken),
        audit: d.store.auditOfWake(wakeToken).map((a) => toAudit(a, d.agentName(a.agentId))),
      };
    },
    'audit.list': async ({ limit }) => d.store.listAudit(limit).map((a) => toAudit(a, d.agentName(a.agentId))),
    ...createSearchApi(d.store),
    ...threads,
    'agents.list': async () => d.agents(),
    'agents.check': async ({ agentId }) => {
      if (agentId !== undefined && !d.agents().some((a) => a.id === agentId))
        throw new ApiError('invalid_request', `There is no agent "${agentId}"; see agentteam.json.`);
      await d.checkAgents?.(agentId);
      return d.agents();
    },
    'agents.installable': async () => d.installable(),
    'settings.get': async () => d.settings(),
    'settings.update': async (patch) => d.updateSettings(patch),
    ...d.channels,
    'approvals.list': async ({ status, limit, wakeToken }) =>
      approvals()
        .list({ ...(status ? { status } : {}), ...(limit ? { limit } : {}), ...(wakeToken ? { wakeToken } : {}) })
        .map((r) => toApproval(r, d.agentName(r.agentId))),
    'approvals.answer': async ({ id, decision, scope, reason }) => {
      const r = approvals().answer(id, decision, scope ?? 'once', reason);
      return toApproval(r, d.agentName(r.agentId));
    },
    'agents.update': async ({ agentId, cwd, permissions, isolation, baseBranch }) => {
      agentSettings().update(agentId, {
        ...(cwd === undefined ? {} : { cwd }),
        ...(permissions === undefined ? {} : { permissions }),
        ...(isolation === undefined ? {} : { isolation }),
        ...(baseBranch === undefined ? {} : { baseBranch }),
      });
      return agent(agentId);
    },
    'agents.revokeRule': async ({ agentId, rule }) => {
      agentSettings().revokeRule(agentId, rule);
      return agent(agentId);
    },
    'agents.stop': async ({ agentId }) => {
      if (d.turns === undefined) throw new ApiError('unavailable', 'This daemon does not stop turns.');
      d.turns.stop(agentId);
      return agent(agentId);
    },
    'agents.tryNow': async ({ agentId }) => {
      const found = agent(agentId);
      if (d.usagePause?.tryNow(agentId) !== true)
        throw new ApiError('not_paused', `${found.name} has no paused work to try now.`);
      return agent(agentId);
    },
    'agents.cancelPause': async ({ agentId }) => {
      const found = agent(agentId);
      if ((d.usagePause?.cancel(agentId).length ?? 0) === 0)
        throw new ApiError('not_paused', `${found.name} has no paused work to cancel.`);
      return agent(agentId);
    },
    'agents.confirmRule': async ({ agentId, rule }) => {
      agentSettings().confirmRule(agentId, rule);
      return agent(agentId);
    },
    // issue 26: what a wake changed (stored when it ended), and an isolated agent's changes since its base.
    'wakes.changes': async ({ wakeToken }) => {
      const wake = d.store.getWake(wakeToken);
      if (wake === undefined) throw new ApiError('unknown_wake', `There is no wake "${wakeToken}".`);
      return toWakeChanges(wake.wakeToken, wake.agentId, d.store.wakeChanges.get(wakeToken));
    },
    'wakes.comment': async ({ wakeToken, text, ...at }) => {
      const wake = d.store.getWake(wakeToken);
      if (wake === undefined) throw new ApiError('unknown_wake', `There is no wake "${wakeToken}".`);
      const parsed = parseTarget(wake.target);
      const thread =
        parsed.ok && parsed.target.thread !== null
          ? wake.target
          : (await threads['threads.start']({ messageId: wake.messageId })).target;
      const content = reviewCommentText(wake.agentName ?? wake.agentId, { ...at, text });
      const { message } = d.conversations.post(thread, content);
      return { messageId: message.id, seq: message.seq, target: message.target };
    },
    'agents.changes': async ({ agentId }) => {
      agent(agentId);
      if (d.changes === undefined) throw new ApiError('unavailable', 'This daemon does not track changes.');
      return d.changes.sinceBase(agentId);
    },
    // --- issue 25 ---
    'chains.list': async ({ target, pausedOnly, limit }) =>
      teams().listChains({
        ...(target === undefined ? {} : { target: existing(target) }),
        ...(pausedOnly === undefined ? {} : { pausedOnly }),
        ...(limit === undefined ? {} : { limit }),
      }),
    'chains.continue': async ({ chainId, target }) =>
      teams().continueChain({
        ...(chainId === undefined ? {} : { chainId }),
        ...(target === undefined ? {} : { target: existing(target) }),
      }),
    'team.board': async () => teams().board(),
    // --- issue 26 ---
    'worktree.changes': async ({ agentId }) => worktrees().changes(agentId),
    'worktree.merge': async ({ agentId, message }) => worktrees().merge(agentId, message),
    'worktree.discard': async ({ agentId }) => worktrees().discard(agentId),
    // --- issue 27 ---
    'usage.summary': async (filter) => {
      if (filter.agentId !== undefined) agent(filter.agentId);
      return usage().summary(filter);
    },
    'agents.raiseBudget': async ({ agentId, budget }) => {
      agent(agentId);
      usage().raiseBudget(agentId, budget);
      return agent(agentId);
    },
    // The OS folder picker belongs to the desktop app's main process (main/app/folder-picker.ts).
    'desktop.chooseFolder': async () => {
      throw new ApiError(
        'unavailable',
        'Choosing a folder with the system picker is only possible in the desktop app; type the full path instead.',
      );
    },
  };
}
