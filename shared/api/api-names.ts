/**
 * The names of the API contract's calls and events, free of zod: the sandboxed preload imports
 * only this (and `client-api.ts`), so it never bundles the schemas (STYLE.md habit 3). The
 * schemas live in `contract.ts`, which is typed so its calls and events are exactly these names
 * (`satisfies Record<ApiCallName, …>`): a name added on one side only fails typecheck.
 */

/** Every call, `<domain>.<verb>`. */
export const API_CALL_NAMES = [
  'conversations.list',
  'conversations.create',
  'messages.list',
  'messages.search',
  'messages.send',
  'wakes.list',
  'wakes.inspect',
  // issue 24: the audit of cross-target sends (contract §8.3)
  'audit.list',
  'threads.list',
  'threads.start',
  'agents.list',
  'agents.check',
  // issue 39 "Plug-ins": the coding CLIs a person can install, as the runtime descriptors offer them
  'agents.installable',
  'settings.get',
  'settings.update',
  // issue 39 "Plug-ins": every call a channel plug-in answers itself (`telegram` `status`, …),
  // declared with its argument schema in the channel's folder and dispatched by channels/registry.ts
  'channels.call',
  'approvals.list',
  'approvals.answer',
  // issue 14: an agent's workspace / policy from the UI, revoking an "always" rule, the desktop folder picker
  'agents.update',
  'agents.revokeRule',
  // issue 29: confirming an "always" rule found in agentteam.json without the daemon's grant
  'agents.confirmRule',
  'desktop.chooseFolder',
  // issue 23: the limits the daemon applies, so the renderer never restates them
  'limits.get',
  // issue 29: the operator's Stop of an agent's working turn (the chip, `agentteam stop`, Telegram)
  'agents.stop',
  // issue 26: the changes of a wake, and an isolated agent's changes since its base (read only)
  'wakes.changes',
  'agents.changes',
  // issue 26: a review comment on a line of a wake's changes, sent to its agent in the wake's thread
  'wakes.comment',
  // issue 25: agent chains (who woke whom, the hop budget) and the Team board
  'chains.list',
  'chains.continue',
  'team.board',
  // issue 26: an isolated agent's worktree — its changes beyond the base, merge, discard
  'worktree.changes',
  'worktree.merge',
  'worktree.discard',
  // issue 27: a paused agent's Try now and Cancel (the paused chip)
  'agents.tryNow',
  'agents.cancelPause',
  // issue 27: usage per agent per day, limit windows and budgets; the operator raises a budget
  'usage.summary',
  'agents.raiseBudget',
] as const;

/**
 * issue 41: the calls a connection holding the serve token alone is answered — only what an agent
 * may know anyway. Every other call of the contract is the operator's (issue 29 named 14 of them;
 * issue 41 found the rest spoke as the operator too: `messages.send` and `wakes.comment` stored
 * "You" messages that start a fresh chain and can wake any agent, and the reads gave away every
 * conversation and approval). An agent's own tools are its MCP server (message_send, reaction),
 * never this API, so an agent needs none of them.
 * `agentteam serve` answers an operator call only on a connection that presented this start's
 * operator key (the URL's fragment for the UI; `<data-dir>/operator-key`, which the CLI reads,
 * main/serve/operator-key.ts). The desktop app's IPC is the operator's own window and needs none.
 */
export const TOKEN_CALL_NAMES = [
  // the daemon's limits (message size, hops): no conversation, approval or agent in them
  'limits.get',
] as const satisfies readonly ApiCallName[];

const tokenCalls: ReadonlySet<string> = new Set(TOKEN_CALL_NAMES);

/** Whether a call is the operator's (every call but `TOKEN_CALL_NAMES`; issues 29, 41). */
export const isOperatorCall = (name: ApiCallName): boolean => !tokenCalls.has(name);

/** Every event pushed from the daemon to the renderer. */
export const API_EVENT_NAMES = [
  'message.stored',
  // issue 39: a wake's events by concern — its status, a timeline entry, its changes recorded
  'wake.status',
  'wake.timeline',
  'wake.changes',
  'alert.raised',
  'agent.updated',
  'wake.focusRequested',
  'settings.changed',
  'approval.updated',
  // issue 25: a chain's hop count or status changed; one agent's Team board entry changed
  'chain.updated',
  'team.updated',
  // issue 27: a wake's usage was stored, or a limit window / budget changed
  'usage.updated',
] as const;

export type ApiCallName = (typeof API_CALL_NAMES)[number];
export type ApiEventName = (typeof API_EVENT_NAMES)[number];

const callNames: ReadonlySet<string> = new Set(API_CALL_NAMES);
const eventNames: ReadonlySet<string> = new Set(API_EVENT_NAMES);

/** Whether a name from the wire is a call of the contract (never a prototype key such as `__proto__`). */
export const isApiCallName = (name: string): name is ApiCallName => callNames.has(name);

/** Whether a name from the wire is an event of the contract. */
export const isApiEventName = (name: string): name is ApiEventName => eventNames.has(name);

/**
 * issue 39: the events the page need not show within a frame — an agent's busy/idle, its Team board
 * entry, a chain's count, usage, a wake's timeline entries and its changes recorded. Each costs the page
 * a message (a task and a render) when sent alone, and with a busy team they came in stretches of their
 * own (~4 of 7 messages per wake). They wait, in order, for the next message that carries an event to
 * show at once (a wake's status, a message, an alert, an approval) or an answer, at most `LAZY_EVENT_MS`.
 */
const LAZY_EVENT_NAMES: ReadonlySet<ApiEventName> = new Set<ApiEventName>([
  'agent.updated',
  'team.updated',
  'chain.updated',
  'usage.updated',
  'wake.timeline',
  'wake.changes',
]);

/** Whether an event may wait for the next one shown at once (`LAZY_EVENT_NAMES`). */
export const isLazyEvent = (name: ApiEventName): boolean => LAZY_EVENT_NAMES.has(name);

/** The longest a lazy event waits (ms): well under what a person notices of a busy dot or a file count. */
export const LAZY_EVENT_MS = 250;

/** IPC channel name of a call: `agentteam:<domain>.<verb>`. */
export const channelOf = (name: ApiCallName): string => `agentteam:${name}`;

/**
 * issue 30: the one IPC channel of pushed events. Each message is the events pushed in one stretch
 * of the main process's code, in order, as `[{ name, payload }, …]` — one task and one React
 * render in the window instead of one per event (as the WebSocket's `{events}` message).
 */
export const EVENTS_CHANNEL = 'agentteam:events';

/** Splits a call name into its domain and verb (`'wakes.list'` → `['wakes', 'list']`). */
export function splitCallName(name: ApiCallName): [string, string] {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}
