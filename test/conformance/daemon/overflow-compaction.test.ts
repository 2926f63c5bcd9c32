/**
 * A context overflow on a runtime that compacts natively is a compaction continuation in the SAME
 * session, end to end with each REAL runtime CLI (issue 38; DESIGN.md "Compaction, context
 * overflow, crashes"; contract §6.6 is only for a session that cannot go on). After a first
 * exchange (a session with history to summarise), the fake model refuses the turn's context as too
 * long once (`[[overflow]]`, each provider's own refusal); the daemon asks that session to compact
 * (Claude Code `/compact` in its stream-json session, Codex `thread/compact/start`, OpenCode's
 * summarize), the CLI asks the fake for its summary, and the daemon writes a short continuation
 * (CONTEXT-COMPACTED, the exact target and the runtime's own send tool, never the task again),
 * which the fake answers through message_send.
 *
 * Checked through the API, the store, the log and the fake: ONE wake for the message, which ends
 * `reply_sent` (its row and send scope survived: the reply was not refused out of scope); its
 * timeline says "context compacted after an overflow"; no recovery marker, no recovery wake, no
 * renewal; the same runtime process and session (no second start, the stored session id kept);
 * the CLI's compaction request reached the fake after the refusal; the operator's task was written
 * to the runtime once (one delivery prompt_input, and the task text in no model request after the
 * continuation's own — the continuation does not repeat it), and the continuation is recorded as a
 * `continuation` prompt_input naming the exact target.
 *
 * Run one runtime at a time: `npm run test:unit -- test/conformance/daemon/overflow-compaction.test.ts -t claude`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OVERFLOW_CONTINUATION_MARKER } from '../../../main/daemon/prompt/overflow-continuation.js';
import { sessionStoreOf } from '../../../main/daemon/runtime/runtime-factory.js';
import { Store } from '../../../main/daemon/store/index.js';
import { isTerminal } from '../../../shared/wake-status.js';
import {
  DaemonHarness,
  runtimeProcesses,
  type DaemonHarnessOptions,
  type RealRuntime,
} from '../../fixtures/daemon-harness.js';

/**
 * Each runtime as it reports an overflow to the daemon. Claude Code 2.1.197 first tries a reactive compaction of its own when the provider refuses a
 * prompt as too long, and reports "Prompt is too long" only when that is off or fails (e.g. too
 * little history); with it off (DISABLE_AUTO_COMPACT) the refusal reaches the daemon every time.
 */
const OPTIONS: Readonly<Record<RealRuntime, DaemonHarnessOptions>> = {
  'claude-code': { agentEnv: { DISABLE_AUTO_COMPACT: '1' } },
  codex: {},
  // OpenCode 1.18.33 likewise compacts and replays the refused message itself; with its automatic
  // compaction off (`compaction.auto`) the ContextOverflowError reaches the daemon.
  opencode: { agentEnv: { OPENCODE_CONFIG_CONTENT: JSON.stringify({ compaction: { auto: false } }) } },
};
const RUNTIMES = Object.keys(OPTIONS) as RealRuntime[];
const TARGET = '#overflow-compact';
const TASK = 'Please summarize the whole design history.';
/** The timeline's words (issue 38). */
const COMPACTED_AFTER_OVERFLOW = 'context compacted after an overflow';

describe.each(RUNTIMES)('%s: an overflow is compacted and continued in the same session (real CLI)', (runtime) => {
  let h: DaemonHarness | undefined;

  afterEach(async () => {
    await h?.dispose();
    h = undefined;
  }, 60_000);

  it('one wake, reply_sent after the compaction; same process and session; the task written once', async () => {
    h = await DaemonHarness.start(runtime, OPTIONS[runtime]);
    await h.ready(90_000);
    await h.api['conversations.create']({ target: TARGET }).catch(() => undefined);

    // A first exchange: the session has history a compaction can summarise.
    const first = await h.send(TARGET, '[[tool]] Start the design review.');
    expect((await h.terminal(first.wakeToken, 60_000)).status).toBe('reply_sent');
    await h.idle(30_000);
    const pidsBefore = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);
    const sessionBefore = sessionStoreOf(h.dir, h.agentId).load()?.sessionId;
    expect(typeof sessionBefore).toBe('string');
    const requestsBefore = h.model.requests.length;

    const sent = await h.send(TARGET, `[[overflow]] [[tool]] ${TASK}`);
    const wake = await h.terminal(sent.wakeToken, 120_000);
    const requests = h.model.requests.slice(requestsBefore);
    const scripts = requests.map((r) => r.reply?.script ?? null);
    expect(wake.status, `${JSON.stringify(wake)}\n${JSON.stringify(scripts)}\n${h.errorLog()}`).toBe('reply_sent');

    // The fake refused once; the CLI then asked it for the summary (the native compaction), and the
    // continuation was answered through the tool.
    expect(scripts.filter((s) => s === 'overflow')).toHaveLength(1);
    const refused = scripts.indexOf('overflow');
    const summary = scripts.indexOf('compaction_summary', refused);
    expect(summary).toBeGreaterThan(refused);
    const continued = scripts.indexOf('continuation', summary);
    expect(continued).toBeGreaterThan(summary);
    // The continuation did not repeat the task: the newest input the model got with it is the
    // continuation alone, and the task text reaches no request as a new input after the refusal.
    expect(requests[continued]!.input).toContain(OVERFLOW_CONTINUATION_MARKER);
    expect(requests[continued]!.input).toContain(`"${TARGET}"`);
    // (OpenCode's own summary request quotes the conversation: that is the CLI's, not a new input.)
    const taskAgain = requests
      .slice(refused + 1)
      .filter((r) => r.input.includes(TASK) && r.reply?.script !== 'compaction_summary');
    expect(taskAgain.map((r) => r.reply?.script ?? null)).toEqual([]);

    // ONE wake for the message: no recovery wake, no marker; one terminal, after the compaction entry.
    const wakes = await h.api['wakes.list']({ limit: 100 });
    expect(wakes.map((w) => w.wakeToken).sort()).toEqual([first.wakeToken, sent.wakeToken].sort());
    expect(wakes.every((w) => w.recoveries === 0 && isTerminal(w.status))).toBe(true);
    const store = Store.openReadOnly(h.dir);
    try {
      expect(store.listRecoveryMarkers(h.agentId)).toEqual([]);
    } finally {
      store.close();
    }
    const { events, promptInputs } = await h.api['wakes.inspect']({ wakeToken: sent.wakeToken });
    const compactions = events.filter((e) => e.kind === 'compaction');
    expect(compactions.map((e) => e.detail)).toEqual([COMPACTED_AFTER_OVERFLOW]);
    const terminals = events.filter((e) => e.status !== null && isTerminal(e.status));
    expect(terminals).toHaveLength(1);
    expect(events.indexOf(terminals[0]!)).toBeGreaterThan(events.indexOf(compactions[0]!));

    // The task went into the runtime once: one delivery; the continuation is its own entry.
    const kinds = promptInputs.map((p) => p.kind);
    expect(kinds.filter((k) => k === 'delivery')).toHaveLength(1);
    expect(kinds).not.toContain('recovery');
    const continuation = promptInputs.filter((p) => p.kind === 'continuation');
    expect(continuation).toHaveLength(1);
    expect(continuation[0]!.text).toContain(`exact target "${TARGET}"`);
    expect(continuation[0]!.text).not.toContain(TASK);
    expect(promptInputs.filter((p) => p.text.includes(TASK)).map((p) => p.kind)).toEqual(['delivery']);

    // One visible reply per message, by the agent.
    const replies = (await h.api['messages.list']({ target: TARGET, limit: 50 })).messages.filter(
      (m) => m.authorId === h!.agentId,
    );
    expect(replies).toHaveLength(2);

    // The same process and session: no renewal, no second start, the stored session kept.
    expect(h.logLines.some((l) => l.message === 'recovery markers saved')).toBe(false);
    expect(h.logLines.some((l) => l.message.startsWith('context overflowed: the stored runtime session'))).toBe(false);
    const starts = h.logLines.filter((l) => l.message === `${runtime} starting` && l.fields.agentId === h!.agentId);
    expect(starts).toHaveLength(1);
    expect(sessionStoreOf(h.dir, h.agentId).load()?.sessionId).toBe(sessionBefore);
    const pidsAfter = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);
    expect(pidsAfter.filter((p) => pidsBefore.includes(p)).length).toBeGreaterThan(0);
  }, 240_000);
});
