/**
 * The demo runtime (`runtime: "demo"`): an agent with no LLM, so a first-time
 * user sees the whole product. It reaches the agentteam MCP server over HTTP with the SDK
 * client and its own bearer token exactly like a real runtime, and implements the same
 * RuntimeAdapter. Everything it posts says it is the demo. issue 30: it runs in the demo worker
 * thread, off the daemon's event loop (demo-worker.ts); the daemon sees it through
 * DemoThreadRuntime (demo-thread.ts), the same adapter relayed over the thread's port.
 *
 * It shares the host vocabulary and the event stream (runtime-event-stream.ts) with the CLI
 * runtimes, but not the skeleton (runtime-skeleton.ts): it has no process to spawn, restart or
 * kill and no wire session to store or resume, and it answers each final-check itself in
 * the same turn (as `in_turn` does), so those parts would have nothing to do here.
 *
 * Commands in the operator's message:
 * - `/slow`  a long quiet task (DEMO_TASK_MS, default 50 s: one silence-watchdog beacon at
 *            the default 45 s), then a reply;
 * - `/local` answers only locally, then replies after the daemon's final-check (contract §8.3);
 * - `/react`  reacts 👍 to the triggering message instead of writing;
 * - `/approve` asks the operator, through the approval path every runtime uses, to write a small
 *            file into its workspace; allowed → written, then a reply; denied/expired → nothing
 *            written, a reply that says so (demo-approve.ts);
 * - `/edit` (issue 40 item 10) asks the same way to append a new numbered line to that file, a
 *            different change each time; `/edit conflict` one that a merge into its worktree's base
 *            refuses as a conflict, made in its own worktree and branch only (demo-edit.ts);
 * - `/cross #other` posts a note to `#other` on purpose (`allow_cross_target`, contract §8.3:
 *            allowed and audited), then replies where it was asked;
 * - `/ask agent question` (issue 25) asks another agent where it was asked; when that agent's
 *            reply is handed back (a `signal_only` workflow callback), posts what it answered.
 *            Asked by another agent, the demo gives a scripted answer (it has no LLM). What it
 *            quotes (the question, the answer) never re-mentions anyone: a quoted `@id` would wake
 *            that agent again and spend hops of the chain. Named as the agent to ask (the
 *            operator's `@demo /ask @helper …` mentions, so wakes, the helper too), it never asks
 *            itself: it answers the question;
 * - `/limit` (issue 27) the first time: the turn is refused as a provider's usage limit would be
 *            ("retry after DEMO_LIMIT_SECONDS", default 60) — the wake pauses; delivered again, it replies;
 * - anything else: an immediate reply via message_send.
 * issue 30: with `DEMO_WORK_MS` in its env, the demo works that long on each input before it
 * answers, reporting a tool call `DEMO_EVENTS_PER_SECOND` times a second (default 20) as a
 * working CLI streams its tool events (the busy-team benchmark, bench/busy-team.bench.ts).
 * Commands, not words: the turn context itself talks about "local" output.
 *
 * issue 27: each turn reports a demo's usage before it ends, so the Usage view is not empty for a
 * first-time user: one token per `DEMO_CHARS_PER_TOKEN` characters of the input the turn read
 * (input) and of the text it wrote (output), nothing cached, no cost (the demo calls no model).
 * issue 41: `/slow` also reports what it used so far before its long task (as per-request runtimes do).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { asyncScheduler, firstValueFrom, from, race, Subject, timer, type SchedulerLike } from 'rxjs';
import { interval, last } from 'rxjs';
import { map, take, tap } from 'rxjs/operators';
import { withoutMentions } from '../../../../shared/mention.js';
import type { TurnUsage } from '../../../../shared/usage.js';
import type { DaemonLog } from '../../daemon-log.js';
import { TOOL_MESSAGE_SEND, TOOL_REACTION } from '../../mcp/mcp-names.js';
import type { McpEndpoint } from '../../mcp/mcp-server.js';
import { parseEnvelopes } from '../../prompt/envelope.js';
import { askApprovalHost, type ApprovalAnswer, type ApprovalAsk } from '../approval-port.js';
import { exactTargets } from '../prompt-targets.js';
import {
  boundedDetail,
  textMetrics,
  type DeliverResult,
  type RuntimeAdapter,
  type RuntimeEvent,
  type StartResult,
  type TurnBoundaryHost,
} from '../runtime-adapter.js';
import { RuntimeEventStream } from '../runtime-event-stream.js';
import { demoApproveReply, demoFileAsk, readBefore, writeDemoFile, DEMO_FILE } from './demo-approve.js';
import { shortSignalFetch } from './short-signal-fetch.js';
import { editedText, linesOf, moveBranchTo, nextEditNumber, planConflict } from './demo-edit.js';
import { withdrawn } from '../prompt-queue.js';

export const DEMO_LABEL = '[demo]';
/** One beacon at the default 45 s silence threshold before the reply. */
export const DEFAULT_DEMO_TASK_MS = 50_000;
/** issue 27: the demo's usage counts a token per this many characters (a rough English average). */
export const DEMO_CHARS_PER_TOKEN = 4;
/** Final-checks the demo answers in one turn; the host sends at most one per row anyway (contract §6.4). */
const MAX_BOUNDARIES_PER_TURN = 3;

export interface DemoRuntimeOptions {
  readonly agentId: string;
  readonly mcp: McpEndpoint;
  readonly host: TurnBoundaryHost;
  /** The agent's `env` from config: `DEMO_TASK_MS` sets the quiet task's length. */
  readonly env: Readonly<Record<string, string>>;
  /** issue 14: where `/approve` writes: the agent's workspace (workspace.ts), made or checked at start. */
  readonly workspace: string;
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

type DemoCommand =
  'slow' | 'local' | 'react' | 'approve' | 'edit' | 'cross' | 'ask' | 'asked' | 'handed_back' | 'limit' | 'reply';

/** issue 27: `/limit`'s refusal, ending the turn as a provider's usage limit does. */
class DemoUsageLimit extends Error {}

/** `/cross <target>`: the target the demo sends to across its scope (issue 24). */
const CROSS = /(?:^|\s)\/cross\s+((?:#|dm:@)[^\s<]+)/i;
/**
 * `/ask agent question` (issue 25; `@agent` works too, but an operator's `@agent` also wakes that
 * agent directly, as every operator mention does).
 */
const ASK = /(?:^|\s)\/ask\s+@?([a-z0-9][a-z0-9._-]{0,63})\s+([\s\S]+)/i;
/** The scripted answer of a demo agent asked a question (it has no LLM). */
function scriptedAnswer(question: string): string {
  return `${DEMO_LABEL} You asked: "${question.trim()}". I am a demo agent with no LLM, so this is my scripted answer: start small, test it, then ship it.`;
}
/** The ask line the prompt compiler puts before an agent-caused delivery (prompt/team-context.ts). */
const ASK_LINE = /<agentteam-ask cause="(agent_mention|hand_back)" from="@([^"]+)">/g;

export function demoCommand(text: string): DemoCommand {
  // issue 25: the last ask line names why this delivery came (another agent asked, or an answer came back).
  const cause = [...text.matchAll(ASK_LINE)].at(-1)?.[1];
  if (cause === 'hand_back') return 'handed_back';
  if (cause === 'agent_mention') return 'asked';
  if (ASK.test(parseEnvelopes(text).at(-1)?.content ?? '')) return 'ask';
  if (/(^|\s)\/slow\b/i.test(text)) return 'slow';
  if (/(^|\s)\/local\b/i.test(text)) return 'local';
  if (/(^|\s)\/react\b/i.test(text)) return 'react';
  if (/(^|\s)\/approve\b/i.test(text)) return 'approve';
  if (/(^|\s)\/edit\b/i.test(text)) return 'edit';
  if (CROSS.test(text)) return 'cross';
  if (/(^|\s)\/limit\b/i.test(text)) return 'limit';
  return 'reply';
}

/** issue 27: a demo turn's usage from the characters it read and wrote (see the header). */
export function demoUsage(readChars: number, writtenChars: number): TurnUsage {
  return {
    inputTokens: Math.ceil(readChars / DEMO_CHARS_PER_TOKEN),
    outputTokens: Math.ceil(writtenChars / DEMO_CHARS_PER_TOKEN),
    cachedTokens: 0,
    costUsd: null,
  };
}

export function demoTaskMs(env: Readonly<Record<string, string>>): number {
  const value = Number(env.DEMO_TASK_MS);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_DEMO_TASK_MS;
}

/** The tool a working demo reports (issue 30). */
export const DEMO_WORK_TOOL = 'Read';

/** issue 30: how long the demo works on each input, and how many tool events a second it reports meanwhile. */
export function demoWork(env: Readonly<Record<string, string>>): { readonly ms: number; readonly perSecond: number } {
  const ms = Number(env.DEMO_WORK_MS ?? 0);
  const perSecond = Number(env.DEMO_EVENTS_PER_SECOND ?? 20);
  return {
    ms: Number.isFinite(ms) && ms > 0 ? ms : 0,
    perSecond: Number.isFinite(perSecond) && perSecond > 0 ? perSecond : 20,
  };
}

export class DemoRuntime implements RuntimeAdapter {
  readonly runtime = 'demo' as const;
  private readonly events = new RuntimeEventStream();
  readonly events$ = this.events.events$;
  private readonly scheduler: SchedulerLike;
  private readonly interrupts = new Subject<void>();
  private client: Client | null = null;
  /** Deliveries not yet turned into a turn, oldest first; `draining` runs them one at a time. */
  private readonly pending: string[] = [];
  private draining: Promise<void> | null = null;
  private turnOpen = false;
  private stopped = false;
  private readonly generation = 1;

  /** issue 40 item 10: the number of the last `/edit` written, so the next is a different change. */
  private lastEdit = 0;
  /** issue 27: `/limit` refuses once per runtime. */
  private limitSpent = false;
  /** issue 27: characters the running turn read and wrote, for its demo usage. */
  private turnChars = { read: 0, written: 0 };

  constructor(private readonly options: DemoRuntimeOptions) {
    this.scheduler = options.scheduler ?? asyncScheduler;
  }

  async start(): Promise<StartResult> {
    if (this.client !== null) return { ok: true, sessionId: null, resumed: false };
    const client = new Client({ name: 'agentteam-demo-runtime', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(this.options.mcp.url), {
          requestInit: { headers: { ...this.options.mcp.headers } },
          fetch: shortSignalFetch,
        }),
      );
      const { tools } = await client.listTools();
      if (!tools.some((t) => t.name === TOOL_MESSAGE_SEND))
        throw new Error(`the MCP server offers no ${TOOL_MESSAGE_SEND} tool`);
    } catch (err) {
      await client.close().catch(() => undefined);
      return {
        ok: false,
        code: 'exited',
        message: boundedDetail(
          `The demo runtime could not reach the agentteam MCP server: ${err instanceof Error ? err.message : String(err)}`,
        ),
      };
    }
    this.client = client;
    this.emit({ type: 'ready', sessionId: null, resumed: false });
    return { ok: true, sessionId: null, resumed: false };
  }

  async deliver(text: string, due?: () => boolean): Promise<DeliverResult> {
    // issue 38: its wakes were paused or ended before it was handed over: never written.
    if (due !== undefined && !due()) return withdrawn();
    if (this.client === null || this.stopped)
      return {
        ok: false,
        code: 'not_running',
        message: 'The demo runtime is not running; the delivery was not written.',
      };
    // One turn at a time, like a real runtime that queues input during a turn.
    // A real runtime reads its input after the write returns: yield to the event loop first, so
    // the host has marked the rows runtime-visible before this turn can reach its boundary.
    // issue 19: a loop over a list, not `queue = queue.then(…)`: the next delivery arrives while
    // the current turn runs, and that chain kept ~3 promises per turn alive for good (heap
    // snapshot: a promise chain 250 deep hanging off runTurn after 900 wakes).
    this.pending.push(text);
    this.draining ??= this.drain();
    return { ok: true };
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0 && !this.stopped)
        await this.runTurn().catch((err: unknown) =>
          this.options.log?.error('demo turn failed', { error: String(err) }),
        );
    } finally {
      this.draining = null;
    }
  }

  /**
   * The next queued input, read as a real runtime reads it: after yielding to the event loop, so
   * the host has marked the rows of a delivery runtime-visible (its `deliver` returned) before
   * this turn answers it or reaches its boundary.
   */
  private async nextInput(): Promise<string | undefined> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const text = this.stopped ? undefined : this.pending.shift();
    if (text !== undefined) this.turnChars.read += text.length;
    return text;
  }

  async interrupt(): Promise<void> {
    this.interrupts.next();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.interrupts.next();
    await this.draining;
    await this.client?.close().catch(() => undefined);
    this.client = null;
    this.emit({ type: 'exit', code: 0, signal: null, expected: true });
    this.events.complete();
  }

  private emit(event: RuntimeEvent): void {
    this.events.emit(this.generation, event);
  }

  /**
   * One turn: answers every input queued for it, including input delivered while it runs, and
   * only then reaches its boundary. issue 19: a turn used to answer one delivery and then meet
   * the final-check of the input delivered meanwhile (the host sees it runtime-visible and
   * unreplied), answer that, and leave the input itself queued for a later turn; under a closed
   * loop every turn closed several wakes but consumed one input, so the queue (and the daemon's
   * heap) grew without bound and most replies came from final-checks. A real CLI reads the
   * input queued during its turn before it stops, as this does.
   */
  private async runTurn(): Promise<void> {
    this.turnChars = { read: 0, written: 0 };
    const first = await this.nextInput();
    if (first === undefined) return;
    this.turnOpen = true;
    this.emit({ type: 'turn_start', sessionId: null });
    try {
      if (!(await this.answer(first))) return this.endTurn('interrupted');
      for (let checks = 0; ;) {
        const text = await this.nextInput();
        if (text !== undefined) {
          if (!(await this.answer(text))) return this.endTurn('interrupted');
          continue;
        }
        // Nothing queued: the boundary. Final-checks the demo answers in one turn are bounded;
        // the host sends at most one per row anyway (contract §6.4).
        if (this.stopped || checks >= MAX_BOUNDARIES_PER_TURN || !(await this.boundary())) break;
        checks += 1;
      }
      this.endTurn('completed');
    } catch (err) {
      this.emit({
        type: 'runtime_error',
        detail: boundedDetail(`demo runtime: ${err instanceof Error ? err.message : String(err)}`),
        ...(err instanceof DemoUsageLimit ? { reason: 'provider_rate_limited' as const } : {}),
      });
      this.endTurn('error');
    }
  }

  /** Answers one input per its command; false when an interrupt ended a quiet task. */
  private async answer(text: string): Promise<boolean> {
    const target = exactTargets(text)[0] ?? null;
    const command = demoCommand(text);
    if (command === 'limit' && !this.limitSpent) {
      this.limitSpent = true;
      const seconds = Number(this.options.env.DEMO_LIMIT_SECONDS ?? 60);
      throw new DemoUsageLimit(`usage limit reached; retry after ${Number.isFinite(seconds) ? seconds : 60} seconds`);
    }
    if (!(await this.work())) return false;
    if (command === 'slow') {
      const ms = demoTaskMs(this.options.env);
      this.local('Working on the long demo task…');
      // issue 41: what the turn read and wrote so far is reported before the long task, as a runtime
      // that reports per model request (Codex) reports the request that started its tools; a daily
      // budget that report reaches ends the task (usage/budget-guard.ts).
      this.reportUsage();
      const finished = await firstValueFrom(
        race(timer(ms, this.scheduler).pipe(map(() => true)), this.interrupts.pipe(map(() => false))),
      );
      if (!finished) return false;
      if (target !== null)
        await this.send(
          target,
          `${DEMO_LABEL} Finished the long quiet task after ${Math.round(ms / 1000)} s. While I was quiet, the daemon showed "Working…" beacons so you were never left wondering.`,
        );
    } else if (command === 'react') {
      // A confirmed reaction to the triggering message is a visible reply too (contract §9.2).
      const trigger = parseEnvelopes(text).at(-1);
      if (trigger !== undefined) await this.react(trigger.messageId, '👍');
    } else if (command === 'approve') {
      const path = join(this.options.workspace, DEMO_FILE);
      const answer = await this.askToWrite(demoFileAsk(path, await readBefore(path)));
      if (answer === null) return false;
      const written = answer.decision === 'allow' ? await writeDemoFile(this.options.workspace) : null;
      if (target !== null)
        await this.send(target, demoApproveReply(DEMO_LABEL, this.options.workspace, answer, written));
    } else if (command === 'edit') {
      const reply = await this.edit(/(^|\s)\/edit\s+conflict\b/i.test(text));
      if (reply === null) return false;
      if (target !== null) await this.send(target, reply);
    } else if (command === 'cross') {
      const elsewhere = CROSS.exec(text)?.[1] ?? '';
      await this.send(elsewhere, `${DEMO_LABEL} A note sent here on purpose from another conversation.`, true);
      if (target !== null) await this.send(target, `${DEMO_LABEL} I also posted a note in ${elsewhere}, on purpose.`);
    } else if (command === 'ask') {
      // issue 25: the question goes to the other agent where the demo was asked; its reply comes back.
      const [, named = '', question = ''] = ASK.exec(parseEnvelopes(text).at(-1)?.content ?? '') ?? [];
      const agent = named.toLowerCase();
      // An agent never asks itself: named as the one to ask, it answers.
      if (target !== null)
        await this.send(
          target,
          agent === this.options.agentId
            ? scriptedAnswer(withoutMentions(question))
            : `${DEMO_LABEL} @${agent} ${withoutMentions(question).trim()}`,
        );
    } else if (command === 'asked') {
      const asked = parseEnvelopes(text).at(-1);
      const question = (asked?.content ?? '').replace(/^\[demo\]\s*/, '').replace(/@[a-z0-9][a-z0-9._-]*\s*/gi, '');
      if (target !== null) await this.send(target, scriptedAnswer(question));
    } else if (command === 'handed_back') {
      const answer = parseEnvelopes(text).at(-1);
      const said = withoutMentions((answer?.content ?? '').replace(/^\[demo\]\s*/, ''));
      if (target !== null && answer !== undefined)
        await this.send(target, `${DEMO_LABEL} ${answer.authorName} answered: ${said}`);
    } else if (command === 'local') {
      // Deliberately local-only: the daemon's final-check at the boundary is what gets a reply out.
      this.local('This answer stays in my local output and is never posted.');
    } else if (target !== null) {
      await this.send(
        target,
        `${DEMO_LABEL} Hi! I am the demo agent: no LLM, just a script that talks to AgentTeam like a real runtime. Send "/slow" for a long quiet task (watch the beacons), "/local" for an answer that only reaches you after the final-check, "/react" for a reaction instead of a message, "/approve" to see an approval: I ask to write ${DEMO_FILE} in my workspace, and you allow or deny it, or "/edit" for a new change to that file each time, to review, merge or discard ("/edit conflict" for one whose merge is refused as a conflict).`,
      );
    }
    return true;
  }

  /** issue 30: `DEMO_WORK_MS` of work with a tool event at the set rate; false when interrupted. */
  private async work(): Promise<boolean> {
    const { ms, perSecond } = demoWork(this.options.env);
    if (ms === 0) return true;
    const ticks = Math.max(1, Math.round((ms * perSecond) / 1000));
    return firstValueFrom(
      race(
        interval(ms / ticks, this.scheduler).pipe(
          take(ticks),
          tap(() => this.emit({ type: 'tool_call', name: DEMO_WORK_TOOL })),
          last(),
          map(() => true),
        ),
        this.interrupts.pipe(map(() => false)),
      ),
    );
  }

  /**
   * The turn boundary hook (same contract as the Claude Stop hook): a final-check is answered in
   * the same turn. False when the host has none (the turn may end).
   */
  private async boundary(): Promise<boolean> {
    let check: string | null;
    try {
      check = await this.options.host.onTurnBoundary();
    } catch (err) {
      this.emit({
        type: 'final_check',
        outcome: 'failed',
        via: 'user_message',
        detail: boundedDetail(`host error: ${err instanceof Error ? err.message : String(err)}`),
      });
      return false;
    }
    if (check === null) return false;
    this.emit({ type: 'final_check', outcome: 'injected', via: 'user_message', detail: null });
    for (const target of exactTargets(check)) {
      await this.send(
        target,
        `${DEMO_LABEL} Here is the answer I had only written locally; the final-check reminded me to post it through message_send.`,
      );
    }
    return true;
  }

  /**
   * Asks the operator through the host's approval path (the same one the CLI drivers use via the
   * skeleton); null when the turn is interrupted or the runtime stops while waiting (the pending
   * request is then cancelled by the agent session at the runtime's exit, or expires).
   */
  private async askToWrite(ask: ApprovalAsk): Promise<ApprovalAnswer | null> {
    // A stop during the caller's read has already signalled `interrupts`: do not ask after it.
    if (this.stopped) return null;
    this.emit({ type: 'tool_call', name: ask.tool });
    const asked = askApprovalHost(this.options.host.requestApproval, ask, (error) =>
      this.options.log?.error('approval request failed', { agentId: this.options.agentId, error }),
    );
    return firstValueFrom(race(from(asked), this.interrupts.pipe(map(() => null))));
  }

  /**
   * `/edit` or `/edit conflict` (demo-edit.ts): asks to write the change, then writes it; resolves
   * with the reply, or null when interrupted while asking.
   */
  private async edit(conflict: boolean): Promise<string | null> {
    const workspace = this.options.workspace;
    const path = join(workspace, DEMO_FILE);
    const before = await readBefore(path);
    const plan = conflict ? await planConflict(workspace, this.lastEdit) : null;
    if (plan?.kind === 'refused') return `${DEMO_LABEL} I made no conflicting change: ${plan.message}`;
    const n = plan?.n ?? nextEditNumber(before, this.lastEdit);
    const after = plan?.text ?? editedText(before, n);
    const answer = await this.askToWrite(demoFileAsk(path, before, linesOf(after)));
    if (answer === null) return null;
    if (answer.decision !== 'allow') return demoApproveReply(DEMO_LABEL, workspace, answer, null);
    // Only after the allow: the branch moves back (its worktree was clean and had nothing ahead of the base).
    const moved = plan === null ? null : await moveBranchTo(workspace, plan.from);
    const error = moved ?? (await writeDemoFile(workspace, after));
    if (error !== null) return demoApproveReply(DEMO_LABEL, workspace, answer, error);
    this.lastEdit = n;
    return plan === null
      ? `${DEMO_LABEL} Wrote edit ${n} in ${DEMO_FILE} in ${workspace}: one new line. Review it, then merge or discard it; send /edit again for another change.`
      : `${DEMO_LABEL} Wrote edit ${n} in ${DEMO_FILE} from an older copy: I moved my own branch back to ${plan.from}, just before ${plan.commit} (the last change of the file on ${plan.base}), and wrote a different line where that change wrote its own. A merge now is refused as a conflict and leaves ${plan.base} as it was; Discard puts me back on ${plan.base}.`;
  }

  private async react(messageId: string, emoji: string): Promise<CallToolResult> {
    if (this.client === null) throw new Error('not connected');
    this.emit({ type: 'tool_call', name: TOOL_REACTION });
    return (await this.client.callTool({
      name: TOOL_REACTION,
      arguments: { message_id: messageId, emoji },
    })) as CallToolResult;
  }

  private local(text: string): void {
    this.turnChars.written += text.length;
    this.emit({ type: 'local_text', ...textMetrics(text) });
  }

  private async send(target: string, content: string, allowCrossTarget = false): Promise<CallToolResult> {
    if (this.client === null) throw new Error('not connected');
    this.turnChars.written += content.length;
    this.emit({ type: 'tool_call', name: TOOL_MESSAGE_SEND });
    const args = allowCrossTarget ? { target, content, allow_cross_target: true } : { target, content };
    return (await this.client.callTool({ name: TOOL_MESSAGE_SEND, arguments: args })) as CallToolResult;
  }

  private endTurn(outcome: 'completed' | 'error' | 'interrupted'): void {
    if (!this.turnOpen) return;
    this.turnOpen = false;
    // A turn refused as by a provider's limit (`/limit`) consumed nothing.
    if (outcome !== 'error') this.reportUsage();
    this.emit({ type: 'turn_end', outcome });
  }

  /** The usage of what the turn read and wrote since its last report (none when nothing). */
  private reportUsage(): void {
    const { read, written } = this.turnChars;
    this.turnChars = { read: 0, written: 0 };
    if (read + written > 0) this.emit({ type: 'usage', usage: demoUsage(read, written) });
  }
}
