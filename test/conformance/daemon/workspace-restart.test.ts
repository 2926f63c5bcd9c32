/**
 * issue 14 on the real Claude Code CLI (fake model): a workspace and policy chosen from the agent
 * detail (`agents.update`) restart the agent's runtime with them. In-flight work is handled as at
 * any process replacement (contract §6.6): a pending approval is cancelled, the wake the old
 * process had seen ends `failed/process_replaced` (issue 24) and is recovered into the new
 * process. The next wake's shell command runs in the NEW folder without a question (`full`).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { filter, firstValueFrom, map, skipWhile, timeout } from 'rxjs';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import type { Approval } from '../../../shared/api/contract.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

let h: DaemonHarness;

/** The first approval (already listed, or announced from now on) that matches. */
async function approval(pred: (a: Approval) => boolean, ms: number): Promise<Approval> {
  const next = firstValueFrom(
    h.daemon.events$.pipe(
      filter((e) => e.name === 'approval.updated' && pred(e.payload as Approval)),
      map((e) => e.payload as Approval),
      timeout(ms),
    ),
  );
  const listed = (await h.api['approvals.list']({})).find(pred);
  if (listed !== undefined) {
    next.catch(() => undefined);
    return listed;
  }
  return next;
}
beforeAll(async () => {
  // Claude Code refuses bypassPermissions (`full`) for root unless IS_SANDBOX=1 (this machine runs tests as root).
  h = await DaemonHarness.start('claude-code', { agentEnv: { IS_SANDBOX: '1' } });
  await h.ready(60_000);
}, 90_000);
afterAll(async () => {
  await h?.dispose();
}, 60_000);

it('a restart while a turn waits for an approval: the approval is cancelled, the wake ends process_replaced and is recovered', async () => {
  const { wakeToken } = await h.send('#inflight', '[[shell:touch inflight.txt]] Please create the file.');
  const asked = await approval((a) => a.status === 'pending' && a.wakeTokens.includes(wakeToken), 60_000);
  await h.api['agents.update']({ agentId: h.agentId, permissions: 'auto-edit' });
  await approval((a) => a.id === asked.id && a.status === 'cancelled', 30_000);
  const done = await h.terminal(wakeToken, 60_000);
  expect({ status: done.status, reason: done.reason }).toEqual({ status: 'failed', reason: 'process_replaced' });
  // The old process, told "cancelled" as it stops, may still try to reply: refused (its send scope
  // retired, §8.3) and recorded; the input is recovered into the new process instead.
  expect(done.recoveries).toBe(1);
  expect(existsSync(join(h.workspace, 'inflight.txt'))).toBe(false);
  // The recovery continuation re-delivers the input to the restarted agent: one recovery wake, one terminal status.
  const recovery = (await h.api['wakes.list']({})).filter((w) => w.wakeToken !== wakeToken && w.target === '#inflight');
  expect(recovery).toHaveLength(1);
  expect((await h.terminal(recovery[0]!.wakeToken, 90_000)).status).toBe('reply_sent');
  await h.idle(30_000);
}, 180_000);

it('agents.update {cwd, permissions} restarts the real CLI there: the next command runs in the new folder, unasked', async () => {
  // Beside the data dir, never inside it (issue 29).
  const next = `${h.dir}-next-project`;
  mkdirSync(next);
  onTestFinished(() => rmSync(next, { recursive: true, force: true }));
  // Restarted = the agent went through `starting` and is idle again (the new process is ready).
  const restarted = firstValueFrom(
    h.daemon.events$.pipe(
      filter((e) => e.name === 'agent.updated' && e.payload.id === h.agentId),
      map((e) => (e.payload as { state: string }).state),
      skipWhile((state) => state !== 'starting'),
      filter((state) => state === 'idle'),
      timeout(60_000),
    ),
  );
  const agent = await h.api['agents.update']({ agentId: h.agentId, cwd: next, permissions: 'full' });
  expect(agent).toMatchObject({ cwd: next, permissions: 'full' });
  await restarted;
  expect(h.logLines.filter((l) => l.message.startsWith('agent restarting')).map((l) => l.fields)).toContainEqual({
    agentId: h.agentId,
    cwd: next,
    permissions: 'full',
  });

  const { wakeToken } = await h.send('#general', '[[shell:touch moved.txt]] Please create the file.');
  const done = await h.terminal(wakeToken, 90_000);
  expect(done.status).toBe('reply_sent');
  expect(existsSync(join(next, 'moved.txt'))).toBe(true);
  expect(existsSync(join(h.workspace, 'moved.txt'))).toBe(false);
  // `full`: nothing was asked of the operator.
  expect((await h.api['approvals.list']({})).filter((a) => a.summary.includes('moved.txt'))).toEqual([]);
}, 180_000);
