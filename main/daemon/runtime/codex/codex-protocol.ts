/**
 * The Codex app-server protocol by method name, over the types generated from the installed CLI
 * (./generated/, `node scripts/generate-codex-protocol.mjs`; research/runtimes.md §3). ts-rs emits
 * the message unions (`ClientRequest`, `ServerNotification`, `ServerRequest`) but no method →
 * response map, so the responses the adapter reads are mapped here by hand, each to its generated
 * type. The narrowing helpers let the runtime's mapping code switch on `method` / `type` instead of
 * probing strings out of `unknown`.
 */
import type { ApplyPatchApprovalResponse } from './generated/ApplyPatchApprovalResponse.js';
import type { ClientNotification } from './generated/ClientNotification.js';
import type { ClientRequest } from './generated/ClientRequest.js';
import type { ExecCommandApprovalResponse } from './generated/ExecCommandApprovalResponse.js';
import type { InitializeResponse } from './generated/InitializeResponse.js';
import type { ServerNotification } from './generated/ServerNotification.js';
import type { ServerRequest } from './generated/ServerRequest.js';
import type { CommandExecutionRequestApprovalResponse } from './generated/v2/CommandExecutionRequestApprovalResponse.js';
import type { DynamicToolCallResponse } from './generated/v2/DynamicToolCallResponse.js';
import type { FileChangeRequestApprovalResponse } from './generated/v2/FileChangeRequestApprovalResponse.js';
import type { McpServerElicitationRequestResponse } from './generated/v2/McpServerElicitationRequestResponse.js';
import type { PermissionsRequestApprovalResponse } from './generated/v2/PermissionsRequestApprovalResponse.js';
import type { ThreadItem } from './generated/v2/ThreadItem.js';
import type { ThreadResumeResponse } from './generated/v2/ThreadResumeResponse.js';
import type { ThreadStartResponse } from './generated/v2/ThreadStartResponse.js';
import type { ToolRequestUserInputResponse } from './generated/v2/ToolRequestUserInputResponse.js';
import type { TurnInterruptResponse } from './generated/v2/TurnInterruptResponse.js';
import type { TurnStartResponse } from './generated/v2/TurnStartResponse.js';
import type { AskForApproval } from './generated/v2/AskForApproval.js';
import type { CodexErrorInfo } from './generated/v2/CodexErrorInfo.js';
import type { SandboxMode } from './generated/v2/SandboxMode.js';
import type { ThreadResumeParams } from './generated/v2/ThreadResumeParams.js';
import type { TurnError } from './generated/v2/TurnError.js';
import type { TurnStatus } from './generated/v2/TurnStatus.js';

/**
 * The one way into ./generated/ (STYLE.md habit 18; scripts/lint/generated-imports.js): the message
 * unions, and the generated words the adapter names itself — the thread policy it asks for
 * (codex-approvals.ts), the resume params (codex-driver.ts), a failed turn's error (codex-failure.ts)
 * and a turn's status (codex-rpc-typed.test.ts).
 */
export type {
  AskForApproval,
  CodexErrorInfo,
  SandboxMode,
  ServerNotification,
  ServerRequest,
  ThreadResumeParams,
  TurnError,
  TurnStatus,
};

// ── client → server requests ────────────────────────────────────────────────

export type ClientRequestMethod = ClientRequest['method'];
export type ClientRequestParams<M extends ClientRequestMethod> = Extract<ClientRequest, { method: M }>['params'];

/** Responses of the requests the adapter sends (the generated `<Name>Params` ↔ `<Name>Response` pairs). */
export interface ClientResponses {
  initialize: InitializeResponse;
  'thread/start': ThreadStartResponse;
  'thread/resume': ThreadResumeResponse;
  'turn/start': TurnStartResponse;
  'turn/interrupt': TurnInterruptResponse;
}

/** A request's result type; `unknown` for methods not mapped in `ClientResponses` yet. */
export type ClientResponse<M extends ClientRequestMethod> = M extends keyof ClientResponses
  ? ClientResponses[M]
  : unknown;

/** The params argument: optional where the protocol has none (`params: undefined`). */
export type ClientRequestArgs<M extends ClientRequestMethod> =
  undefined extends ClientRequestParams<M> ? [params?: ClientRequestParams<M>] : [params: ClientRequestParams<M>];

export type ClientNotificationMethod = ClientNotification['method'];

// ── server → client notifications ───────────────────────────────────────────

type NotificationMethod = ServerNotification['method'];
export type NotificationOf<M extends NotificationMethod> = Extract<ServerNotification, { method: M }>;
export type NotificationParams<M extends NotificationMethod> = NotificationOf<M>['params'];

/** Narrows a notification to one method: `if (isNotification(n, 'turn/completed')) n.params.turn.status`. */
export function isNotification<M extends NotificationMethod>(
  n: { readonly method: string },
  method: M,
): n is NotificationOf<M> {
  return n.method === method;
}

// ── server → client requests ────────────────────────────────────────────────

type ServerRequestMethod = ServerRequest['method'];
export type ServerRequestOf<M extends ServerRequestMethod> = Extract<ServerRequest, { method: M }>;

/** Results of the server requests the adapter answers (research/runtimes.md §3: each must be answered). */
export interface ServerRequestResponses {
  'item/commandExecution/requestApproval': CommandExecutionRequestApprovalResponse;
  'item/fileChange/requestApproval': FileChangeRequestApprovalResponse;
  'item/permissions/requestApproval': PermissionsRequestApprovalResponse;
  'item/tool/requestUserInput': ToolRequestUserInputResponse;
  'item/tool/call': DynamicToolCallResponse;
  'mcpServer/elicitation/request': McpServerElicitationRequestResponse;
  execCommandApproval: ExecCommandApprovalResponse;
  applyPatchApproval: ApplyPatchApprovalResponse;
}

export function isServerRequest<M extends ServerRequestMethod>(
  r: { readonly method: string },
  method: M,
): r is ServerRequestOf<M> {
  return r.method === method;
}

// ── thread items (the payload of item/started and item/completed) ──────────

type ThreadItemType = ThreadItem['type'];
export type ThreadItemOf<T extends ThreadItemType> = Extract<ThreadItem, { type: T }>;

/** Narrows an item by its `type`: `if (isItem(item, 'mcpToolCall')) item.server`. */
export function isItem<T extends ThreadItemType>(item: { readonly type: string }, type: T): item is ThreadItemOf<T> {
  return item.type === type;
}
