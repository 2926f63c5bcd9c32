/**
 * The `GET /event` payloads the OpenCode adapter reads, as a union discriminated by `type`.
 *
 * Source: the OpenAPI 3.1 document the installed server serves itself — opencode 1.18.33,
 * `opencode serve --hostname 127.0.0.1 --pure` with throw-away HOME/XDG dirs, then `GET /doc`
 * (research/runtimes.md §3 "OpenCode"): `/event` answers `#/components/schemas/Event`, and the
 * members below are `EventServerConnected`, `EventSessionStatus`, `EventSessionIdle`,
 * `EventSessionError`, `EventMessageUpdated`, `EventMessagePartUpdated`, `EventPermissionAsked` with `SessionStatus`,
 * `Message` (`UserMessage` | `AssistantMessage`), `Part` and `ToolState`. Only the fields the
 * adapter needs are written out; every event also carries an `id` (`evt_…`) the client drops.
 * `@opencode-ai/sdk` generates the same types but is not a dependency (it must work offline).
 */

/** `SessionStatus`: `busy` starts a turn, `idle` ends it; `retry` is a provider retry inside one. */
type OpencodeSessionStatus =
  | { readonly type: 'idle' }
  | { readonly type: 'busy' }
  | { readonly type: 'retry'; readonly attempt: number; readonly message: string; readonly next: number };

/** The error union of `session.error` and `AssistantMessage.error` (by `name`). */
type OpencodeError =
  | { readonly name: 'ProviderAuthError'; readonly data: { readonly providerID: string; readonly message: string } }
  | { readonly name: 'UnknownError'; readonly data: { readonly message: string; readonly ref?: string } }
  | { readonly name: 'MessageOutputLengthError'; readonly data: Readonly<Record<string, never>> }
  | { readonly name: 'MessageAbortedError'; readonly data: { readonly message: string } }
  | { readonly name: 'StructuredOutputError'; readonly data: { readonly message: string; readonly retries: number } }
  | {
      readonly name: 'ContextOverflowError';
      readonly data: { readonly message: string; readonly responseBody?: string };
    }
  | { readonly name: 'ContentFilterError'; readonly data: { readonly message: string } }
  | {
      readonly name: 'APIError';
      readonly data: { readonly message: string; readonly statusCode?: number; readonly isRetryable: boolean };
    };

interface MessageBase {
  readonly id: string;
  readonly sessionID: string;
}

type OpencodeMessage =
  | (MessageBase & { readonly role: 'user'; readonly time: { readonly created: number } })
  | (MessageBase & {
      readonly role: 'assistant';
      readonly time: { readonly created: number; readonly completed?: number };
      readonly error?: OpencodeError;
      readonly parentID: string;
      /** The model that answered (issue 38: summarize names it). */
      readonly providerID?: string;
      readonly modelID?: string;
    });

/** `ToolState`: pending → running → completed | error. */
export type OpencodeToolState =
  | { readonly status: 'pending'; readonly input: Readonly<Record<string, unknown>>; readonly raw: string }
  | { readonly status: 'running'; readonly input: Readonly<Record<string, unknown>>; readonly title?: string }
  | {
      readonly status: 'completed';
      readonly input: Readonly<Record<string, unknown>>;
      readonly output: string;
      readonly title: string;
    }
  | { readonly status: 'error'; readonly input: Readonly<Record<string, unknown>>; readonly error: string };

interface PartBase {
  readonly id: string;
  readonly sessionID: string;
  readonly messageID: string;
}

type OpencodeTextPart = PartBase & {
  readonly type: 'text';
  readonly text: string;
  readonly synthetic?: boolean;
  /** `end` is set once the text part is finished. */
  readonly time?: { readonly start: number; readonly end?: number };
};

type OpencodeToolPart = PartBase & {
  readonly type: 'tool';
  readonly callID: string;
  /** The tool as the model sees it, e.g. `agentteam_message_send` (MCP server + `_` + tool). */
  readonly tool: string;
  readonly state: OpencodeToolState;
};

/** `Part`: text and tool parts in full; the others by their discriminant only. */
type OpencodePart =
  | OpencodeTextPart
  | OpencodeToolPart
  | (PartBase & {
      readonly type:
        | 'subtask'
        | 'reasoning'
        | 'file'
        | 'step-start'
        | 'step-finish'
        | 'snapshot'
        | 'patch'
        | 'agent'
        | 'retry'
        | 'compaction';
    });

/** The `/event` members the adapter uses, discriminated by `type`. */
export type OpencodeBusEvent =
  | { readonly type: 'server.connected'; readonly properties: Readonly<Record<string, never>> }
  | {
      readonly type: 'session.status';
      readonly properties: { readonly sessionID: string; readonly status: OpencodeSessionStatus };
    }
  /** issue 16 (§6.6): the session was summarised (`POST /session/:id/summarize`, or auto on overflow). */
  | { readonly type: 'session.compacted'; readonly properties: { readonly sessionID: string } }
  /** Deprecated duplicate of `session.status` idle; both are sent. */
  | { readonly type: 'session.idle'; readonly properties: { readonly sessionID: string } }
  | {
      readonly type: 'session.error';
      readonly properties: { readonly sessionID?: string; readonly error?: OpencodeError };
    }
  | {
      readonly type: 'message.updated';
      readonly properties: { readonly sessionID: string; readonly info: OpencodeMessage };
    }
  | {
      readonly type: 'message.part.updated';
      readonly properties: { readonly sessionID: string; readonly part: OpencodePart; readonly time: number };
    }
  /** issue 14: a tool use the `permission` config says to ask about; answered by `POST /permission/{id}/reply`. */
  | { readonly type: 'permission.asked'; readonly properties: OpencodePermissionAsked };

/** `PermissionRequest` (`permission.asked`): `permission` is the config key (`bash`, `edit`, …). */
export type OpencodePermissionAsked = {
  /** `per…` */
  readonly id: string;
  readonly sessionID: string;
  readonly permission: string;
  /** What the request covers, e.g. the command line of a bash call. */
  readonly patterns: readonly string[];
  /** Tool-specific: `command` for bash, `filepath` and `diff` for edit. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The patterns an "always" answer would allow (OpenCode's own suggestion; we record our own rule). */
  readonly always?: readonly string[];
  readonly tool?: { readonly messageID: string; readonly callID: string };
};

type OpencodeBusEventType = OpencodeBusEvent['type'];
export type OpencodeBusEventOf<T extends OpencodeBusEventType> = Extract<OpencodeBusEvent, { type: T }>;

/** One `/event` payload as it arrives: any `type` (a newer server adds some), untyped properties. */
export interface OpencodeEvent {
  readonly type: string;
  readonly properties: Record<string, unknown>;
}

/** Narrows an event to one known member: `if (isOpencodeEvent(e, 'session.status')) e.properties.status.type`. */
export function isOpencodeEvent<T extends OpencodeBusEventType>(e: OpencodeEvent, type: T): e is OpencodeBusEventOf<T> {
  return e.type === type;
}
