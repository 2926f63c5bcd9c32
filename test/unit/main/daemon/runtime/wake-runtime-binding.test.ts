import { Registry } from 'prom-client';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TargetKey } from '../../../../../shared/target.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import type { AgentRuntime, RuntimeEvent, RuntimePrompt, RuntimeResult, SubmitReceipt } from '../../../../../main/daemon/runtime/agent-runtime.js';
import { WakeRuntimeBinding, type PromptInputRecord } from '../../../../../main/daemon/runtime/wake-runtime-binding.js';
import { WakeLifecycle } from '../../../../../main/daemon/wake/wake-lifecycle.js';
import type { WakeJournal } from '../../../../../main/daemon/wake/wake-ports.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';

/** A scripted runtime: the test emits its events and sees what was submitted. */
class ScriptedRuntime implements AgentRuntime {
  readonly kind = 'codex' as const;
  readonly events = new Subject<RuntimeEvent>();
  readonly events$ = this.events.asObservable();
  readonly submitted: RuntimePrompt[] = [];
  generation = 0;
  starts = 0;
  stops = 0;
  refuseSubmit = false;
  async start() {
    this.starts += 1;
    this.generation += 1;
    return { ok: true as const, value: { generation: this.generation, sessionId: 's1', resumed: this.starts > 1 } };
  }
  async submit(prompt: RuntimePrompt): Promise<RuntimeResult<SubmitReceipt>> {
    this.submitted.push(prompt);
    if (this.refuseSubmit) return { ok: false, code: 'not_running', message: 'the runtime is not running' };
    return { ok: true, value: { generation: this.generation, turnId: null } };
  }
  async interrupt() {
    return { ok: true as const, value: undefined };
  }
  async stop() {
    this.stops += 1;
  }
  diagnostics() {
    return { pid: null, stderrTail: '' };
  }
  turnEnd(outcome: 'completed' | 'failed' | 'interrupted', error: string | null = null): void {
    this.events.next({ type: 'turn.end', generation: this.generation, turnId: 't', outcome, error, at: 0 });
  }
}

const journal: WakeJournal = { insertWake: () => undefined, appendWakeEvent: () => true, listWakes: () => [], appendAudit: () => undefined };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function setup() {
  const runtime = new ScriptedRuntime();
  const lifecycle = new WakeLifecycle({ journal, renderFinalCheck: (groups) => `FINAL-CHECK ${groups.map((g) => g.target).join(',')}`, metrics: createWakeMetrics(new Registry()) });
  lifecycle.registerAgent({ agentId: 'a1', publicName: 'a1', displayName: 'A1', runtime: 'codex', model: null });
  const statuses: WakeStatusEvent[] = [];
  lifecycle.wakeStatus$.subscribe((s) => statuses.push(s));
  const prompts: PromptInputRecord[] = [];
  const recovered: unknown[] = [];
  const scheduler = new VirtualTimeScheduler();
  const binding = new WakeRuntimeBinding({
    agentId: 'a1',
    runtime,
    lifecycle,
    scheduler,
    restart: { maxRestarts: 1, windowMs: 60_000, baseDelayMs: 1000, maxDelayMs: 1000 },
    ports: { renderDelivery: (d) => `DELIVERY ${d.wakes.map((w) => w.messageId).join(',')}`, recordPromptInput: (r) => prompts.push(r), onRecovery: (_a, f) => recovered.push(...f) },
  });
  expect(await binding.start()).toBe(true);
  const post = (token: string, seq = 1) => lifecycle.enqueue('a1', { wakeToken: token, messageId: `m_${token}`, target: '#general', targetSeq: seq, deliveryClass: 'visible_reply' });
  const statusOf = (token: string) => statuses.filter((s) => s.wakeToken === token).map((s) => s.status);
  return { runtime, lifecycle, binding, statuses, prompts, recovered, scheduler, post, statusOf };
}

describe('WakeRuntimeBinding (shared adapter behaviour for every runtime)', () => {
  it('writes admitted rows as one delivery and marks them delivered once accepted', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    expect(s.runtime.submitted).toEqual([{ kind: 'delivery', text: 'DELIVERY m_w1' }]);
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered']);
    expect(s.prompts).toEqual([{ agentId: 'a1', kind: 'delivery', wakeTokens: ['w1'], text: 'DELIVERY m_w1' }]);
  });

  it('turn end without a reply → one final-check in the same session → next boundary completed_without_visible_reply', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.turnEnd('completed');
    await flush();
    expect(s.runtime.submitted.map((p) => p.kind)).toEqual(['delivery', 'final_check']);
    expect(s.prompts.filter((p) => p.kind === 'final_check')).toHaveLength(1);
    s.runtime.turnEnd('completed');
    s.runtime.turnEnd('completed');
    await flush();
    expect(s.statusOf('w1')).toEqual(['queued', 'delivered', 'final_check_sent', 'completed_without_visible_reply']);
    expect(s.runtime.submitted.filter((p) => p.kind === 'final_check')).toHaveLength(1);
  });

  it('a send result settles the row; the turn end then injects nothing', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.lifecycle.onSendResult({ agentId: 'a1', status: 'sent', targetKey: '#general' as TargetKey, seenUpToSeq: 1, messageId: 'r1' });
    s.runtime.turnEnd('completed');
    await flush();
    expect(s.statusOf('w1').at(-1)).toBe('reply_sent');
    expect(s.runtime.submitted.map((p) => p.kind)).toEqual(['delivery']);
  });

  it('a failed or interrupted turn fails the pending rows (never a final-check)', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.turnEnd('failed', 'API error 400');
    await flush();
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed')?.detail).toBe('API error 400');
    s.post('w2', 2);
    await flush();
    s.runtime.turnEnd('interrupted');
    await flush();
    expect(s.statusOf('w2').at(-1)).toBe('failed');
    expect(s.runtime.submitted.filter((p) => p.kind === 'final_check')).toHaveLength(0);
  });

  it('a refused submit fails the rows it carried', async () => {
    const s = await setup();
    s.runtime.refuseSubmit = true;
    s.post('w1');
    await flush();
    expect(s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'failed')?.detail).toMatch(/not running/);
  });

  it('a final-check that cannot be written ends the rows at once with no retry', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.refuseSubmit = true;
    s.runtime.turnEnd('completed');
    await flush();
    const terminal = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'completed_without_visible_reply');
    expect(terminal?.detail).toMatch(/final_check_undeliverable/);
  });

  it('crash → pending rows failed, restart after the backoff, process replaced; the cap stops a crash loop', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.events.next({ type: 'exit', generation: s.runtime.generation, code: null, signal: 'SIGKILL', expected: false });
    expect(s.statusOf('w1').at(-1)).toBe('failed');
    expect(s.runtime.starts).toBe(1);
    s.scheduler.flush();
    await flush();
    expect(s.runtime.starts).toBe(2);
    expect(s.lifecycle.generation('a1')).toBe(1);
    // Stale events of the old process are ignored.
    s.runtime.events.next({ type: 'turn.end', generation: 1, turnId: 'old', outcome: 'failed', error: 'stale', at: 0 });
    s.post('w2', 2);
    await flush();
    expect(s.statusOf('w2')).toEqual(['queued', 'delivered']);
    // Second crash inside the window: over the cap of 1 restart.
    s.runtime.events.next({ type: 'exit', generation: s.runtime.generation, code: 1, signal: null, expected: false });
    s.scheduler.flush();
    await flush();
    expect(s.runtime.starts).toBe(2);
  });

  it('an expected exit (stop) neither fails rows nor restarts; stop cancels a pending restart', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.events.next({ type: 'exit', generation: s.runtime.generation, code: 0, signal: null, expected: true });
    expect(s.statusOf('w1').at(-1)).toBe('delivered');
    s.runtime.events.next({ type: 'exit', generation: s.runtime.generation, code: null, signal: 'SIGKILL', expected: false });
    await s.binding.stop();
    s.scheduler.flush();
    await flush();
    expect(s.runtime.starts).toBe(1);
    expect(s.runtime.stops).toBe(1);
  });

  it('local text reaches the lifecycle as counts only', async () => {
    const s = await setup();
    s.post('w1');
    await flush();
    s.runtime.events.next({ type: 'local_text', generation: s.runtime.generation, turnId: 't', text: 'héllo' });
    s.lifecycle.onSendResult({ agentId: 'a1', status: 'sent', targetKey: '#general' as TargetKey, seenUpToSeq: 1, messageId: 'r1' });
    const done = s.statuses.find((e) => e.wakeToken === 'w1' && e.status === 'reply_sent');
    expect(done?.localText).toEqual({ bytes: 6, runes: 5 });
    expect(JSON.stringify(s.statuses)).not.toContain('héllo');
  });
});
