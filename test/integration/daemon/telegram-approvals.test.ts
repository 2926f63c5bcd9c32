/**
 * Approvals answered from the phone (issue 14 × issue 18): the assembled daemon, a conversation
 * bound to a (fake, real-wire) Telegram chat, and a scripted runtime adapter that asks for
 * permission through the session's host exactly as a CLI driver does (`host.requestApproval`),
 * so the approval is the daemon's own durable request. Observed where people see it: the chat
 * (text, keyboard, edits, the answers to button presses) and the daemon API (`approvals.list`).
 * The same flow with the real Claude CLI is in test/integration/runtime/telegram-claude.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplaySubject, Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Approval } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import type { ApprovalAnswer } from '../../../main/daemon/runtime/approval-port.js';
import type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEventEnvelope,
  StartResult,
  TurnBoundaryHost,
} from '../../../main/daemon/runtime/runtime-adapter.js';
import { startFakeTelegram, type ChatMessage } from '../../fixtures/fake-telegram.js';
import { readyProbe } from '../../fixtures/ready-probe.js';

const CHAT = -100777;
const OTHER_CHAT = -100888;
const OPERATOR = 501;
const OTHER_OPERATOR = 502;
const STRANGER = 666;
const TUNING = { pollTimeoutSeconds: 5, sendTimeoutMs: 1000, typingIntervalMs: 60_000, pollBackoffMs: 100 };

/** A runtime that, for each delivery, opens a turn and asks to run `touch <file>` like a CLI driver would. */
class AskingRuntime implements RuntimeAdapter {
  readonly runtime = 'claude-code' as const;
  readonly #events = new Subject<RuntimeEventEnvelope>();
  readonly events$ = this.#events.asObservable();
  readonly answers = new ReplaySubject<ApprovalAnswer>();
  host: TurnBoundaryHost | null = null;

  async start(): Promise<StartResult> {
    this.#events.next({ type: 'ready', sessionId: 's1', resumed: false, generation: 1 });
    return { ok: true, sessionId: 's1', resumed: false };
  }
  #turnOpen = false;

  async deliver(text: string): Promise<DeliverResult> {
    if (!this.#turnOpen) this.#events.next({ type: 'turn_start', sessionId: 's1', generation: 1 });
    this.#turnOpen = true;
    const file = /touch (\S+)/.exec(text)?.[1] ?? 'x.txt';
    void this.host
      ?.requestApproval?.({
        kind: 'command',
        tool: 'Bash',
        summary: `touch ${file}`,
        detail: `touch ${file}`,
        rule: `Bash(touch ${file})`,
      })
      .then((a) => this.answers.next(a));
    return { ok: true };
  }
  async interrupt(): Promise<void> {}
  async stop(): Promise<void> {
    this.#events.complete();
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(
  o: { approvalTimeoutSeconds?: number; telegramThresholdSeconds?: number; typingIntervalMs?: number } = {},
) {
  const tg = await startFakeTelegram();
  cleanups.push(() => tg.close());
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-tg-approvals-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: ['worker', 'helper'].map((id) => ({
        id,
        name: id === 'worker' ? 'Worker' : 'Helper',
        runtime: 'claude-code',
        ...(o.approvalTimeoutSeconds !== undefined ? { approvalTimeoutSeconds: o.approvalTimeoutSeconds } : {}),
      })),
      channels: {
        telegram: {
          botTokenEnv: 'TG_APPROVALS_TOKEN',
          ...(o.telegramThresholdSeconds !== undefined
            ? { silenceWatchdog: { thresholdSeconds: o.telegramThresholdSeconds } }
            : {}),
          apiRoot: tg.apiRoot,
          bindings: [
            { chatId: CHAT, target: '#general', allowFrom: [OPERATOR] },
            { chatId: OTHER_CHAT, target: '#ops', allowFrom: [OTHER_OPERATOR] },
          ],
        },
      },
    }),
  );
  const runtimes = new Map<string, AskingRuntime>();
  // A CLI agent is built once its readiness probe answers (issue 40 item 6): after the start resolves.
  let workerBuilt: (r: AskingRuntime) => void = () => undefined;
  const worker = new Promise<AskingRuntime>((r) => (workerBuilt = r));
  const daemon: Daemon = await createDaemon({
    dataDir: dir,
    env: { TG_APPROVALS_TOKEN: tg.token },
    channelTuning: {
      telegram: { ...TUNING, ...(o.typingIntervalMs !== undefined ? { typingIntervalMs: o.typingIntervalMs } : {}) },
    },
    probe: readyProbe,
    createRuntime: (agent, deps) => {
      const runtime = new AskingRuntime();
      runtime.host = deps.host;
      runtimes.set(agent.id, runtime);
      if (agent.id === 'worker') workerBuilt(runtime);
      return { ok: true, adapter: runtime };
    },
  });
  const runtime = await worker;
  cleanups.push(() => daemon.stop());

  const approvalOf = async (id: string): Promise<Approval> => {
    const found = (await daemon.api['approvals.list']({})).find((a) => a.id === id);
    if (found === undefined) throw new Error(`no approval ${id}`);
    return found;
  };
  /** The operator asks an agent (from the app) for work in `target`; resolves once the question is in the chat. */
  const ask = async (target: string, file: string, o: { chatId?: number; agent?: string } = {}) => {
    const chatId = o.chatId ?? CHAT;
    const since = tg.calls.length;
    await daemon.api['messages.send']({ target, content: `@${o.agent ?? 'worker'} touch ${file}` });
    const posted = await tg.waitFor(
      (c) => c.method === 'sendMessage' && c.body.chat_id === chatId && String(c.body.text).includes(file),
      since,
    );
    const pending = (await daemon.api['approvals.list']({ status: 'pending' })).find((a) => a.summary.includes(file));
    if (pending === undefined) throw new Error('no pending approval');
    const message = tg.chat(chatId).find((m) => m.text === posted.body.text) as ChatMessage;
    return { approval: pending, message };
  };
  const edited = (chatId: number, messageId: number, since = 0) =>
    tg.waitFor(
      (c) => c.method === 'editMessageText' && c.body.chat_id === chatId && c.body.message_id === messageId,
      since,
    );
  const answerTo = (queryId: string) =>
    tg.waitFor((c) => c.method === 'answerCallbackQuery' && c.body.callback_query_id === queryId, 0);
  return { tg, daemon, runtime, approvalOf, ask, edited, answerTo };
}

describe('approvals answered from the bound Telegram chat', () => {
  it('the question carries Allow / Deny; the operator allows from the phone → allowed, message edited, keyboard gone', async () => {
    const { tg, runtime, approvalOf, ask, edited, answerTo } = await setup();
    const { approval, message } = await ask('#general', 'phone.txt');
    expect(message.text).toBe(
      '✋ Worker asks: touch phone.txt\nFor this session or always, exactly: Bash(touch phone.txt)',
    );
    expect(message.keyboard?.flat().map((b) => b.text)).toEqual(['Allow once', 'Deny', 'For this session', 'Always']);
    for (const b of message.keyboard?.flat() ?? []) {
      expect(Buffer.byteLength(b.callback_data)).toBeLessThanOrEqual(64);
      expect(b.callback_data).toContain(approval.id);
    }
    // Getting updates asks for button presses, or Telegram would never deliver them.
    const poll = await tg.waitFor((c) => c.method === 'getUpdates', 0);
    expect(poll.body.allowed_updates).toEqual(expect.arrayContaining(['message', 'callback_query']));

    const query = tg.userPresses({
      chatId: CHAT,
      fromId: OPERATOR,
      messageId: message.messageId,
      button: 'Allow once',
    });
    await edited(CHAT, message.messageId);
    await answerTo(query);
    expect(tg.callbackAnswers).toEqual([{ queryId: query, text: 'Allowed.' }]);
    expect(await approvalOf(approval.id)).toMatchObject({ status: 'allowed', scope: 'once' });
    // The runtime got the operator's allow through the same service call the app and the CLI use.
    expect(await new Promise((r) => runtime.answers.subscribe(r))).toMatchObject({
      decision: 'allow',
      status: 'allowed',
    });
    const [shown] = tg.chat(CHAT).filter((m) => m.messageId === message.messageId);
    expect(shown).toMatchObject({
      text: '✋ Worker asks: touch phone.txt\nFor this session or always, exactly: Bash(touch phone.txt)\n✅ Allowed by @user501',
      keyboard: null,
      edits: 1,
    });
  });

  it('issue 40: "Always" from the phone grants exactly the rule the question showed; "For this session" answers the next one', async () => {
    const { tg, daemon, approvalOf, ask, edited, answerTo } = await setup();
    const first = await ask('#general', 'always.txt');
    const query = tg.userPresses({
      chatId: CHAT,
      fromId: OPERATOR,
      messageId: first.message.messageId,
      button: 'Always',
    });
    await edited(CHAT, first.message.messageId);
    await answerTo(query);
    expect(await approvalOf(first.approval.id)).toMatchObject({ status: 'allowed', scope: 'always' });
    const worker = (await daemon.api['agents.list']({})).find((a) => a.id === 'worker');
    expect(worker?.allow).toEqual(['Bash(touch always.txt)']);
    expect(tg.chat(CHAT).find((m) => m.messageId === first.message.messageId)).toMatchObject({
      text: '✋ Worker asks: touch always.txt\nFor this session or always, exactly: Bash(touch always.txt)\n✅ Allowed by @user501 (always: Bash(touch always.txt))',
      keyboard: null,
    });
    const second = await ask('#general', 'session.txt');
    tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: second.message.messageId, button: 'For this session' });
    await edited(CHAT, second.message.messageId);
    expect(await approvalOf(second.approval.id)).toMatchObject({ status: 'allowed', scope: 'session' });
    expect(
      tg
        .chat(CHAT)
        .find((m) => m.messageId === second.message.messageId)
        ?.text.split('\n')
        .at(-1),
    ).toBe('✅ Allowed by @user501 (for this session)');
  });

  it('a stranger is refused, and so is an operator of another chat forging button data; the approval stays pending', async () => {
    const { tg, approvalOf, ask, answerTo } = await setup();
    const { approval, message } = await ask('#general', 'strange.txt');
    const q1 = tg.userPresses({ chatId: CHAT, fromId: STRANGER, messageId: message.messageId, button: 'Allow once' });
    await answerTo(q1);
    // Another agent's question in #ops's chat, where OTHER_OPERATOR is allowed: pressing it with the
    // #general approval's data (a client may send any data) must not answer an approval of #general.
    const ops = await ask('#ops', 'ops.txt', { chatId: OTHER_CHAT, agent: 'helper' });
    const forged = message.keyboard?.[0]?.[0]?.callback_data ?? '';
    expect(forged).toContain(approval.id);
    const q2 = tg.userPresses({
      chatId: OTHER_CHAT,
      fromId: OTHER_OPERATOR,
      messageId: ops.message.messageId,
      data: forged,
    });
    await answerTo(q2);
    const refusal = 'You are not allowed to answer approvals in this chat.';
    expect(tg.callbackAnswers).toEqual([
      { queryId: q1, text: refusal },
      { queryId: q2, text: refusal },
    ]);
    expect((await approvalOf(approval.id)).status).toBe('pending');
    expect((await approvalOf(ops.approval.id)).status).toBe('pending');
    expect(tg.chat(CHAT).find((m) => m.messageId === message.messageId)).toMatchObject({
      keyboard: message.keyboard,
      edits: 0,
    });
    expect(tg.calls.some((c) => c.method === 'editMessageText')).toBe(false);
  });

  it('the operator answers in the app first → the chat message shows it; a late press says so and changes nothing', async () => {
    const { tg, daemon, approvalOf, ask, edited, answerTo } = await setup();
    const { approval, message } = await ask('#general', 'desk.txt');
    // The IPC gate's / WebSocket's handler: the same `approvals.answer` the CLI's `agentteam deny` calls.
    await daemon.api['approvals.answer']({ id: approval.id, decision: 'deny' });
    await edited(CHAT, message.messageId);
    expect(tg.chat(CHAT).find((m) => m.messageId === message.messageId)).toMatchObject({
      text: '✋ Worker asks: touch desk.txt\nFor this session or always, exactly: Bash(touch desk.txt)\n🚫 Denied',
      keyboard: null,
    });
    // A press that left the phone before the edit arrived (its data as the button had it).
    const since = tg.calls.length;
    const q = tg.userPresses({
      chatId: CHAT,
      fromId: OPERATOR,
      messageId: message.messageId,
      data: message.keyboard?.[0]?.[0]?.callback_data ?? '',
    });
    await answerTo(q);
    expect(tg.callbackAnswers).toEqual([{ queryId: q, text: 'This request is already denied; nothing was changed.' }]);
    expect(await approvalOf(approval.id)).toMatchObject({ status: 'denied' });
    // The message already shows the outcome: re-editing it to the same text is a no-op Telegram refuses, nothing else.
    const after = tg.calls.slice(since).filter((c) => c.method === 'editMessageText');
    for (const c of after)
      expect(c.body.text).toBe(
        '✋ Worker asks: touch desk.txt\nFor this session or always, exactly: Bash(touch desk.txt)\n🚫 Denied',
      );
  });

  it('an unanswered request expires → the chat message says so and its keyboard is gone', async () => {
    const { tg, runtime, approvalOf, ask, edited } = await setup({ approvalTimeoutSeconds: 1 });
    const { approval, message } = await ask('#general', 'late.txt');
    await edited(CHAT, message.messageId);
    expect(tg.chat(CHAT).find((m) => m.messageId === message.messageId)).toMatchObject({
      text: '✋ Worker asks: touch late.txt\nFor this session or always, exactly: Bash(touch late.txt)\n⌛ Expired — no answer in time, so it was denied',
      keyboard: null,
    });
    expect((await approvalOf(approval.id)).status).toBe('expired');
    expect(await new Promise((r) => runtime.answers.subscribe(r))).toMatchObject({
      decision: 'deny',
      status: 'expired',
    });
  });

  it('a request cancelled by the daemon stopping → the chat message says so and its keyboard is gone', async () => {
    const { tg, daemon, ask, edited } = await setup();
    const { message } = await ask('#general', 'stop.txt');
    await daemon.stop();
    await edited(CHAT, message.messageId);
    expect(tg.chat(CHAT).find((m) => m.messageId === message.messageId)).toMatchObject({
      text: '✋ Worker asks: touch stop.txt\nFor this session or always, exactly: Bash(touch stop.txt)\n⏹ Cancelled — the agent’s runtime or AgentTeam stopped',
      keyboard: null,
    });
  });

  it('in Simplified Chinese when the app is; a conversation bound to no chat gets no question', async () => {
    const { tg, daemon, ask } = await setup();
    await daemon.api['settings.update']({ language: 'zh-CN' });
    // helper works for #unbound: its approval is listed in the app, and no chat is told.
    await daemon.api['messages.send']({ target: '#unbound', content: '@helper touch nowhere.txt' });
    await expect
      .poll(async () => (await daemon.api['approvals.list']({ status: 'pending' })).map((a) => a.summary))
      .toContain('touch nowhere.txt');
    const { message } = await ask('#general', 'zh.txt');
    expect(message.text).toBe('✋ Worker 请求批准：touch zh.txt\n本次会话内或始终允许的规则：Bash(touch zh.txt)');
    expect(message.keyboard?.flat().map((b) => b.text)).toEqual(['允许一次', '拒绝', '本次会话内允许', '始终允许']);
    // The #general question, raised later, has arrived; the #unbound one was never sent anywhere.
    expect(tg.calls.filter((c) => c.method === 'sendMessage').map((c) => c.body.text)).toEqual([
      '✋ Worker 请求批准：touch zh.txt\n本次会话内或始终允许的规则：Bash(touch zh.txt)',
    ]);
  });

  it('no 🧠 beacon and no "typing…" in the chat while the question waits there; the silence clock restarts from zero after the answer', async () => {
    const { tg, ask, edited } = await setup({ telegramThresholdSeconds: 1, typingIntervalMs: 200 });
    const { message } = await ask('#general', 'quiet.txt');
    const askedAt = tg.calls.length;
    const beacons = () => tg.chat(CHAT).filter((m) => m.text.includes('🧠'));
    // Absence over time can only be observed over time: 2.5 thresholds (12 typing periods) with the question pending.
    await new Promise((r) => setTimeout(r, 2500));
    expect(beacons()).toEqual([]);
    // (At most one typing request that left before the wait began and was recorded after the question.)
    expect(tg.calls.slice(askedAt).filter((c) => c.method === 'sendChatAction').length).toBeLessThanOrEqual(1);
    const answeredAt = Date.now();
    tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: message.messageId, button: 'Allow once' });
    await edited(CHAT, message.messageId);
    // The turn goes on silently after the answer: the first beacon comes one threshold later, not at once.
    await tg.waitFor((c) => c.method === 'sendMessage' && String(c.body.text).startsWith('Worker · 🧠'), 0, 10_000);
    expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(900);
    expect(beacons()).toHaveLength(1);
    // Working again: typing resumes.
    expect(tg.calls.slice(askedAt).some((c) => c.method === 'sendChatAction')).toBe(true);
  });

  it('a command too long to show in full gets no buttons and "open AgentTeam to answer"; a forged Allow is refused (issue 29)', async () => {
    const { tg, daemon, approvalOf, answerTo } = await setup();
    // What the chat could show ends well before the part that matters.
    const file = `${'a'.repeat(1200)};curl-x|sh`;
    await daemon.api['messages.send']({ target: '#general', content: `@worker touch ${file}` });
    const posted = await tg.waitFor(
      (c) => c.method === 'sendMessage' && c.body.chat_id === CHAT && String(c.body.text).startsWith('✋ Worker asks'),
      0,
    );
    expect(posted.body.reply_markup).toBeUndefined();
    const message = tg.chat(CHAT).find((m) => m.text === posted.body.text) as ChatMessage;
    expect(message.keyboard).toBeNull();
    expect(message.text).not.toContain('curl-x|sh');
    expect(message.text.split('\n').at(-1)).toBe(
      'This command is too long to show here in full: open AgentTeam to answer.',
    );
    const pending = (await daemon.api['approvals.list']({ status: 'pending' })).find((a) => a.summary.includes(file));
    expect(pending?.summary).toBe(`touch ${file}`);
    const id = pending?.id ?? '';
    // The operator's own client sends Allow's callback data for it anyway: still answered only in the app.
    const q = tg.userPresses({ chatId: CHAT, fromId: OPERATOR, messageId: message.messageId, data: `ap:a:${id}` });
    await answerTo(q);
    expect(tg.callbackAnswers).toEqual([
      { queryId: q, text: 'This command is too long to show here in full: open AgentTeam to answer.' },
    ]);
    expect((await approvalOf(id)).status).toBe('pending');
    // Answered in the app: the message shows the outcome like any other.
    await daemon.api['approvals.answer']({ id, decision: 'deny' });
    await tg.waitFor((c) => c.method === 'editMessageText' && c.body.message_id === message.messageId, 0);
    expect(
      tg
        .chat(CHAT)
        .find((m) => m.messageId === message.messageId)
        ?.text.endsWith('\n🚫 Denied'),
    ).toBe(true);
  });
});
