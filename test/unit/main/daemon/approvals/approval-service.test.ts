/** issue 14: approvals as durable daemon objects — real store, virtual time for expiry. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VirtualTimeScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalService } from '../../../../../main/daemon/approvals/approval-service.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { ApprovalAsk } from '../../../../../main/daemon/runtime/approval-port.js';
import { Store, type ApprovalRecord } from '../../../../../main/daemon/store/index.js';

const ask: ApprovalAsk = {
  kind: 'command',
  tool: 'Bash',
  summary: 'npm test',
  detail: 'npm test',
  rule: 'Bash(npm test)',
};
const origin = { agentId: 'claude', runtime: 'claude-code', turnId: 't1', wakeTokens: ['w1'] };

let dir: string;
let store: Store;
let scheduler: VirtualTimeScheduler;
let persisted: Array<[string, string]>;
let waits: boolean[];

function service(allow: string[] = []) {
  const bus = new HookBus();
  bus.approvalWait$.subscribe((e) => waits.push(e.waiting));
  return new ApprovalService({
    table: store.approvals,
    bus,
    policyOf: () => ({ approvalTimeoutSeconds: 60, allow }),
    // Like the config source: the rule lands in the list `policyOf` reads (the service keeps no copy).
    persistRule: (agentId, rule) => {
      persisted.push([agentId, rule]);
      allow.push(rule);
      return null;
    },
    scheduler,
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'approvals-'));
  store = Store.open(dir);
  scheduler = new VirtualTimeScheduler();
  persisted = [];
  waits = [];
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ApprovalService', () => {
  it('a request is durable and pending, pauses the turn, and the operator answer resolves it once', async () => {
    const s = service();
    const changes: ApprovalRecord[] = [];
    s.changes$.subscribe((c) => changes.push(c));
    const answer = s.request(origin, ask);
    const [pending] = s.list({ status: 'pending' });
    expect(pending).toMatchObject({ agentId: 'claude', wakeTokens: ['w1'], summary: 'npm test', status: 'pending' });
    expect(waits).toEqual([true]);
    s.answer(pending!.id, 'allow');
    await expect(answer).resolves.toEqual({ decision: 'allow', scope: 'once', status: 'allowed', reason: null });
    expect(waits).toEqual([true, false]);
    expect(() => s.answer(pending!.id, 'deny')).toThrow(/already allowed/);
    expect(changes.map((c) => c.status)).toEqual(['pending', 'allowed']);
    expect(store.approvals.get(pending!.id)?.answeredAt).not.toBeNull();
  });

  it('an answer given while the pending request is being published reaches the runtime (an auto-answering subscriber)', async () => {
    const s = service();
    // Answers inside the publication of `pending`, before any other subscriber has run.
    s.changes$.subscribe((c) => {
      if (c.status === 'pending') s.answer(c.id, 'allow');
    });
    const answer = s.request(origin, ask);
    await expect(answer).resolves.toEqual({ decision: 'allow', scope: 'once', status: 'allowed', reason: null });
    expect(waits).toEqual([true, false]);
    expect(s.list({ status: 'pending' })).toEqual([]);
  });

  it('deny carries the operator reason the agent reads; an unknown id is a clear error', async () => {
    const s = service();
    const answer = s.request(origin, ask);
    const [pending] = s.list();
    s.answer(pending!.id, 'deny', 'once', 'not today');
    await expect(answer).resolves.toMatchObject({ decision: 'deny', status: 'denied', reason: 'not today' });
    expect(() => s.answer('ap_missing', 'allow')).toThrow(/There is no approval "ap_missing"/);
  });

  it('expires after approvalTimeoutSeconds as a deny with a reason', async () => {
    const s = service();
    const answer = s.request(origin, ask);
    scheduler.flush();
    await expect(answer).resolves.toMatchObject({ decision: 'deny', status: 'expired' });
    expect((await answer).reason).toMatch(/No answer from the operator within 60 s/);
    expect(s.list()[0]?.status).toBe('expired');
  });

  it('"always" writes exactly the shown rule and answers the same request next time; "session" until a restart', async () => {
    const s = service();
    const first = s.request(origin, ask);
    s.answer(s.list()[0]!.id, 'allow', 'always');
    await first;
    expect(persisted).toEqual([['claude', 'Bash(npm test)']]);
    await expect(s.request(origin, ask)).resolves.toMatchObject({ decision: 'allow', scope: 'always' });
    // A different command is asked again: "always" is never broader than what was shown.
    const other = s.request(origin, { ...ask, summary: 'npm test -- --all', rule: 'Bash(npm test -- --all)' });
    expect(s.list({ status: 'pending' })).toHaveLength(1);
    const otherId = s.list({ status: 'pending' })[0]!.id;
    s.answer(otherId, 'allow', 'session');
    await other;
    await expect(
      s.request(origin, { ...ask, summary: 'npm test -- --all', rule: 'Bash(npm test -- --all)' }),
    ).resolves.toMatchObject({ scope: 'session' });
    s.cancelAgent('claude', 'the runtime exited before an answer');
    void s.request(origin, { ...ask, rule: 'Bash(npm test -- --all)' });
    expect(s.list({ status: 'pending' })).toHaveLength(1);
  });

  it('pendingOf answers an agent’s pending requests oldest first, as stored, and forgets an answered one (issue 30)', async () => {
    const s = service();
    const first = s.request(origin, ask);
    void s.request({ ...origin, agentId: 'codex' }, ask);
    void s.request(origin, { ...ask, summary: 'npm run lint', rule: 'Bash(npm run lint)' });
    expect(s.pendingOf('claude').map((a) => a.summary)).toEqual(['npm test', 'npm run lint']);
    expect(s.pendingOf('claude').every((a) => store.approvals.get(a.id)?.status === 'pending')).toBe(true);
    s.answer(s.pendingOf('claude')[0]!.id, 'deny');
    await expect(first).resolves.toMatchObject({ status: 'denied' });
    expect(s.pendingOf('claude').map((a) => a.summary)).toEqual(['npm run lint']);
    expect(s.pendingOf('codex')).toHaveLength(1);
    expect(s.pendingOf('nobody')).toEqual([]);
  });

  it('a rule already in the config answers at once, recorded as allowed', async () => {
    const s = service(['Bash(npm test)']);
    await expect(s.request(origin, ask)).resolves.toMatchObject({ decision: 'allow', status: 'allowed' });
    expect(s.list()[0]).toMatchObject({ status: 'allowed', scope: 'always' });
    expect(waits).toEqual([]);
  });

  it('a runtime exit cancels the agent’s pending requests; a daemon restart cancels what was left pending', async () => {
    const s = service();
    const answer = s.request(origin, ask);
    s.cancelAgent('claude', 'the runtime exited before an answer');
    await expect(answer).resolves.toMatchObject({ decision: 'deny', status: 'cancelled' });
    // A request left pending by a daemon that died (no waiter in this process).
    store.approvals.insert({
      id: 'ap_left',
      agentId: 'claude',
      runtime: 'claude-code',
      turnId: null,
      wakeTokens: [],
      kind: 'command',
      tool: 'Bash',
      summary: 'ls',
      detail: 'ls',
      rule: 'Bash(ls)',
      createdAt: new Date().toISOString(),
      expiresAt: new Date().toISOString(),
    });
    const restarted = service();
    expect(restarted.cancelStale()).toBe(1);
    expect(store.approvals.get('ap_left')).toMatchObject({
      status: 'cancelled',
      reason: expect.stringMatching(/restarted/),
    });
  });
});

describe('issue 29: a request with no exact rule is allowed only once', () => {
  const inexact: ApprovalAsk = {
    kind: 'other',
    tool: 'Stdin',
    summary: 'input to a running command: y',
    detail: 'y',
    rule: null,
  };

  it('"always" and "session" are refused naming why, nothing is saved; "once" allows it; no rule ever answers it', async () => {
    const s = service();
    const answer = s.request(origin, inexact);
    const [pending] = s.list({ status: 'pending' });
    expect(pending?.rule).toBeNull();
    for (const scope of ['always', 'session'] as const)
      expect(() => s.answer(pending!.id, 'allow', scope)).toThrow(
        /can only be allowed once: what it asks for \(Stdin\) has no exact rule/,
      );
    expect(persisted).toEqual([]);
    expect(s.list({ status: 'pending' })).toHaveLength(1);
    s.answer(pending!.id, 'allow', 'once');
    await expect(answer).resolves.toMatchObject({ decision: 'allow', scope: 'once' });
    // Asked again: still asked (nothing standing answers a request without a rule).
    void s.request(origin, inexact);
    expect(s.list({ status: 'pending' })).toHaveLength(1);
  });
});
