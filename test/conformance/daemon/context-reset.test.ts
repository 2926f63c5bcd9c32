/**
 * Context overflow end to end with each REAL runtime CLI (issue 16, contract §6.6): the fake model
 * refuses the turn's context as too long once (`[[overflow]]`, each provider's own refusal:
 * Anthropic "prompt is too long", Responses `context_length_exceeded`, Chat Completions "maximum
 * context length"), and the CLI reports that it cannot go on its own way (Claude Code "Prompt is
 * too long" result; Codex `contextWindowExceeded`; OpenCode `ContextOverflowError`). A native
 * compaction is no reset: compaction.test.ts (issue 24); nor is an overflow the session can compact:
 * overflow-compaction.test.ts (issue 38). This is the path where that compaction FAILS (§6.6 only
 * then): the fake refuses the CLI's compaction request as too long as well (`[[no-compact]]`; Claude
 * Code's `/compact` of a session with no earlier exchange fails on its own, "Not enough messages"),
 * and the failure is on the original wake's timeline before it ends.
 *
 * Checked through the store and the API: the driver's context_reset became ONE recovery marker
 * with the exact target, the frontier (the message's TargetSeq) and the original wake token; the
 * original wake ends once (completed_without_visible_reply, reason and detail `context_overflow`
 * — never `no_reply`, issue 24 — recoveries 1);
 * ONE synthetic recovery wake is delivered into a FRESH session (issue 24, §6.6: the overflowed
 * session cannot go on): the process is replaced, its stored session forgotten and the new one
 * started without resume (another session / thread id, another process), and only then is the
 * compiled recovery prompt written; the fake model received it in a conversation without the
 * overflowing history (the unanswered message appears once: re-delivered in the recovery prompt);
 * the model answers it through message_send → reply_sent, exactly once.
 *
 * Run one runtime at a time: `npm run test:unit -- test/conformance/daemon/context-reset.test.ts -t codex`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStoreOf } from '../../../main/daemon/runtime/runtime-factory.js';
import { Store } from '../../../main/daemon/store/index.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { targetKey } from '../../../shared/target.js';
import { DaemonHarness, runtimeProcesses, type RealRuntime } from '../../fixtures/daemon-harness.js';

const RUNTIMES: readonly RealRuntime[] = ['claude-code', 'codex', 'opencode'];
const TARGET = '#ctx-reset';
const RESET_CAUSES = ['context_overflow'];

describe.each(RUNTIMES)('%s: a context overflow is recovered into a fresh session (real CLI)', (runtime) => {
  let h: DaemonHarness | undefined;

  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  }, 60_000);

  it('one marker (exact target + frontier), one recovery wake with the recovery prompt in a fresh session, answered once', async () => {
    h = await DaemonHarness.start(runtime);
    await h.ready(90_000);
    await h.api['conversations.create']({ target: TARGET }).catch(() => undefined);
    const pidsBefore = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);

    const sent = await h.send(
      TARGET,
      '[[overflow]] [[no-compact]] [[tool]] Please summarize the whole design history.',
    );
    const original = await h.terminal(sent.wakeToken, 60_000);

    // The original wake ends by the ordinary rule, once, its detail naming the reset (§6.6).
    expect(original.status).toBe('completed_without_visible_reply');
    expect(original.reason).toBe('context_overflow');
    expect(RESET_CAUSES).toContain(original.detail);
    const cause = original.detail as string;

    // The fake refused exactly once, as this provider does.
    expect(h.model.requests.filter((r) => r.reply?.script === 'overflow')).toHaveLength(1);
    // issue 38: the daemon asked the session to compact first; it failed, and the timeline says so
    // before the wake's one terminal.
    const originalEvents = (await h.api['wakes.inspect']({ wakeToken: sent.wakeToken })).events;
    const why = originalEvents.findIndex(
      (e) => e.kind === 'alert' && e.detail?.startsWith('context overflowed and the compaction failed') === true,
    );
    expect(why, JSON.stringify(originalEvents)).toBeGreaterThanOrEqual(0);
    expect(originalEvents.findIndex((e) => e.status !== null && isTerminal(e.status))).toBeGreaterThan(why);
    expect(originalEvents.filter((e) => e.kind === 'compaction')).toEqual([]);

    // The recovery wake: the one wake whose message is synthetic.
    const recoveryWakes = async () =>
      (await h!.api['wakes.list']({ limit: 100 })).filter((w) => w.messageId.startsWith('msg_recovery_'));
    const deadline = Date.now() + 10_000;
    while ((await recoveryWakes()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [recovery, ...more] = await recoveryWakes();
    expect(more).toHaveLength(0);
    expect(recovery).toBeDefined();
    const recovered = await h.terminal(recovery!.wakeToken, 60_000);
    expect(recovered.status, `${JSON.stringify(recovered)}\n${h.errorLog()}`).toBe('reply_sent');
    expect(recovered.target).toBe(TARGET);

    // The marker: exact target, frontier = the message's TargetSeq, the original wake, the cause.
    const message = (await h.api['messages.list']({ target: TARGET, limit: 50 })).messages.find(
      (m) => m.id === sent.messageId,
    );
    expect(message).toBeDefined();
    const store = Store.openReadOnly(h.dir);
    let markers;
    try {
      markers = store.listRecoveryMarkers(h.agentId);
    } finally {
      store.close();
    }
    expect(markers).toHaveLength(1);
    const [marker] = markers;
    expect(marker).toMatchObject({
      target: targetKey(TARGET),
      frontierSeq: message!.seq,
      wakeTokens: [sent.wakeToken],
      cause,
      syntheticMessageId: recovery!.messageId,
    });
    expect(marker!.state).not.toBe('pending');

    // The model received the compiled recovery prompt, with the unanswered message re-delivered in it.
    const head = `<agentteam-recovery id="${recovery!.messageId}" target="${TARGET}" seq="${message!.seq}">`;
    const atModel = h.model.requests.filter((r) => JSON.stringify(r.body).includes(head.replace(/"/g, '\\"')));
    expect(atModel.length).toBeGreaterThan(0);
    expect(JSON.stringify(atModel[0]!.body)).toContain(sent.messageId);
    // issue 24: a conversation without the overflowing history: the unanswered message reaches the
    // model once (re-delivered in the recovery prompt), never also as the overflowed session's turn.
    for (const r of atModel)
      expect(JSON.stringify(r.body).split('Please summarize the whole design history.').length - 1).toBe(1);
    const inspected = await h.api['wakes.inspect']({ wakeToken: recovery!.wakeToken });
    const prompt = inspected.promptInputs.find((p) => p.kind === 'recovery');
    expect(prompt?.text).toContain(head);
    expect(prompt?.text).toContain('Please summarize the whole design history.');

    // Every wake has exactly one terminal status; the original counts one recovery.
    for (const w of [sent.wakeToken, recovery!.wakeToken]) {
      const { events } = await h.api['wakes.inspect']({ wakeToken: w });
      expect(events.filter((e) => e.status !== null && isTerminal(e.status))).toHaveLength(1);
    }
    const after = await h.api['wakes.list']({ limit: 100 });
    expect(after.find((w) => w.wakeToken === sent.wakeToken)?.recoveries).toBe(1);
    expect(after.every((w) => isTerminal(w.status))).toBe(true);

    // Exactly one visible reply, on the exact target, by the agent.
    const replies = (await h.api['messages.list']({ target: TARGET, limit: 50 })).messages.filter(
      (m) => m.authorId === h!.agentId,
    );
    expect(replies).toHaveLength(1);

    // issue 24 (§6.6): a fresh session: the stored session was forgotten, the new process started
    // without resume, and it runs under another session (Claude Code) / thread (Codex) / session
    // (OpenCode) id, in another process.
    expect(h.logLines.some((l) => l.message === 'recovery markers saved' && l.fields.cause === cause)).toBe(true);
    const forgotten = h.logLines.filter((l) =>
      l.message.startsWith('context overflowed: the stored runtime session is forgotten'),
    );
    expect(forgotten).toHaveLength(1);
    const overflowed = forgotten[0]!.fields.sessionId;
    expect(typeof overflowed).toBe('string');
    const fresh = sessionStoreOf(h.dir, h.agentId).load()?.sessionId;
    expect(typeof fresh).toBe('string');
    expect(fresh).not.toBe(overflowed);
    const starts = h.logLines.filter((l) => l.message === `${runtime} starting` && l.fields.agentId === h!.agentId);
    expect(starts.map((l) => l.fields.resume)).toEqual([false, false]);
    const pidsAfter = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);
    expect(pidsAfter.length).toBeGreaterThan(0);
    expect(pidsAfter.filter((p) => pidsBefore.includes(p))).toEqual([]);
    console.info(`${runtime}: context reset reported as ${cause}`);
  }, 180_000);
});
