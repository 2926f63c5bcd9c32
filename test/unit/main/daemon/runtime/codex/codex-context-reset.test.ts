/**
 * The Codex driver's context mapping (issue 16, contract §6.6; issue 24), against a fake
 * `codex app-server` peer on two streams speaking the notifications the real CLI sends (recorded
 * from codex against the fake model: test/conformance/daemon/context-reset.test.ts):
 * - `error` / failed `turn/completed` with `codexErrorInfo: contextWindowExceeded` → ONE
 *   `context_reset` (context_overflow) before the turn ends;
 * - a compaction (`contextCompaction` item + its `thread/compacted` twin), also the one Codex runs
 *   at the start of the turn after an overflow → ONE `context_compacted` per turn (a continuation,
 *   issue 24: this used to be a `context_reset`);
 * - another thread's compaction → nothing.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CodexDriver } from '../../../../../../main/daemon/runtime/codex/codex-driver.js';
import type { DriverEvent, DriverSession } from '../../../../../../main/daemon/runtime/driver-session.js';
import type { RuntimeProcess } from '../../../../../../main/daemon/runtime/runtime-process.js';

const THREAD = 'thr_1';

async function openSession() {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  let turn = 0;
  const requests: Array<{ method: string; params: unknown }> = [];
  createInterface({ input: fromClient }).on('line', (line) => {
    const msg = JSON.parse(line) as { id?: number; method?: string; params?: unknown };
    if (msg.id === undefined) return;
    requests.push({ method: msg.method ?? '', params: msg.params });
    const result =
      msg.method === 'thread/start'
        ? { thread: { id: THREAD } }
        : msg.method === 'turn/start'
          ? { turn: { id: `turn_${++turn}` } }
          : {};
    toClient.write(`${JSON.stringify({ id: msg.id, result })}\n`);
  });
  const events: DriverEvent[] = [];
  const driver = new CodexDriver({
    agentId: 'cdx',
    args: [],
    env: {},
    cwd: '/tmp',
    model: null,
    command: 'codex',
    home: '/tmp/never-written',
    provider: null,
    developerInstructions: null,
    mcp: { url: 'http://127.0.0.1:1/mcp', token: 't' },
  });
  const opened = await driver.connect({
    generation: 1,
    process: { stdin: fromClient, stdout: toClient } as unknown as RuntimeProcess,
    resumeSessionId: null,
    scheduler: asyncScheduler,
    log: undefined,
    emit: (e) => events.push(e),
    delay: () => Promise.resolve(),
    askInTurn: () => Promise.resolve(),
    // Nothing here asks for approval: a question would be a bug in the test's script.
    askApproval: () => Promise.reject(new Error('no approval expected in this test')),
  });
  if (!opened.ok) throw new Error(opened.message);
  const notify = async (method: string, params: Record<string, unknown>) => {
    toClient.write(`${JSON.stringify({ method, params })}\n`);
    // The driver reads lines asynchronously: wait one macrotask for the line to be handled.
    await new Promise((r) => setImmediate(r));
  };
  return { session: opened.session as DriverSession, events, notify, requests };
}

const overflow = {
  message: 'Codex ran out of room in the model\u2019s context window.',
  codexErrorInfo: 'contextWindowExceeded',
};
const resets = (events: readonly DriverEvent[]) => events.filter((e) => e.type === 'context_overflow');
const compactions = (events: readonly DriverEvent[]) => events.filter((e) => e.type === 'context_compacted');

describe('Codex driver: context overflow and compaction (issues 16, 24)', () => {
  it('an overflow is one reset (error + failed turn/completed); the compaction Codex runs next turn is a continuation', async () => {
    const { events, notify } = await openSession();
    await notify('turn/started', { threadId: THREAD, turn: { id: 'turn_1' } });
    await notify('error', { threadId: THREAD, turnId: 'turn_1', error: overflow, willRetry: false });
    await notify('turn/completed', { threadId: THREAD, turn: { id: 'turn_1', status: 'failed', error: overflow } });
    expect(resets(events)).toEqual([{ type: 'context_overflow' }]);
    const ended = events.findIndex((e) => e.type === 'turn_ended');
    expect(events.findIndex((e) => e.type === 'context_overflow')).toBeLessThan(ended);
    expect(events[ended]).toMatchObject({ type: 'turn_ended', outcome: 'failed' });

    // The next turn (the recovery continuation) opens with Codex's compaction of the overflowed
    // context: a compaction, which the session continues (issue 24), never a second reset.
    await notify('turn/started', { threadId: THREAD, turn: { id: 'turn_2' } });
    await notify('item/completed', {
      threadId: THREAD,
      turnId: 'turn_2',
      item: { type: 'contextCompaction', id: 'c1' },
    });
    await notify('thread/compacted', { threadId: THREAD, turnId: 'turn_2' });
    await notify('turn/completed', { threadId: THREAD, turn: { id: 'turn_2', status: 'completed', error: null } });
    expect(resets(events)).toHaveLength(1);
    expect(compactions(events)).toHaveLength(1);
  });

  it('a compaction is one context_compacted per turn (the item and its deprecated twin), never a reset', async () => {
    const { events, notify } = await openSession();
    for (const turn of ['turn_1', 'turn_2']) {
      await notify('turn/started', { threadId: THREAD, turn: { id: turn } });
      await notify('item/completed', { threadId: THREAD, turnId: turn, item: { type: 'contextCompaction', id: turn } });
      await notify('thread/compacted', { threadId: THREAD, turnId: turn });
      await notify('turn/completed', { threadId: THREAD, turn: { id: turn, status: 'completed', error: null } });
    }
    expect(resets(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      'turn_started',
      'context_compacted',
      'turn_ended',
      'turn_started',
      'context_compacted',
      'turn_ended',
    ]);
  });

  it('another thread’s compaction or overflow is not ours', async () => {
    const { events, notify } = await openSession();
    await notify('item/completed', { threadId: 'other', turnId: 'x', item: { type: 'contextCompaction', id: 'c' } });
    await notify('thread/compacted', { threadId: 'other', turnId: 'x' });
    await notify('error', { threadId: 'other', turnId: 'x', error: overflow, willRetry: false });
    expect(resets(events)).toEqual([]);
    expect(compactions(events)).toEqual([]);
  });

  it('compact (issue 38): thread/compact/start on the thread; its own turn is no host turn, its compaction is reported, its end resolves it', async () => {
    const { session, events, notify, requests } = await openSession();
    const compacted = session.compact!();
    await new Promise((r) => setImmediate(r));
    expect(requests.filter((r) => r.method === 'thread/compact/start')).toEqual([
      { method: 'thread/compact/start', params: { threadId: THREAD } },
    ]);
    await notify('turn/started', { threadId: THREAD, turn: { id: 'turn_c' } });
    await notify('item/completed', {
      threadId: THREAD,
      turnId: 'turn_c',
      item: { type: 'contextCompaction', id: 'c' },
    });
    await notify('turn/completed', { threadId: THREAD, turn: { id: 'turn_c', status: 'completed', error: null } });
    expect(await compacted).toEqual({ ok: true });
    expect(events).toEqual([{ type: 'context_compacted' }]);
  });

  it('compact (issue 38): a compaction turn that fails resolves with why, and is no host turn either', async () => {
    const { session, events, notify } = await openSession();
    const compacted = session.compact!();
    await new Promise((r) => setImmediate(r));
    await notify('turn/started', { threadId: THREAD, turn: { id: 'turn_c' } });
    await notify('error', { threadId: THREAD, turnId: 'turn_c', error: overflow, willRetry: false });
    await notify('turn/completed', { threadId: THREAD, turn: { id: 'turn_c', status: 'failed', error: overflow } });
    const res = await compacted;
    expect(res.ok).toBe(false);
    expect(res.ok ? '' : res.message).toContain('ran out of room');
    expect(events.filter((e) => e.type === 'turn_started' || e.type === 'turn_ended')).toEqual([]);
  });
});
