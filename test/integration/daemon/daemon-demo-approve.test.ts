/**
 * `@demo /approve` through the assembled daemon (issue 14 "Demo"): the demo asks to write a file
 * through the same approval path as the CLI runtimes — a durable `approvals` row, `approval.updated`
 * events, the watchdog paused, answered on the API (the CLI and the UI use the same call), expiry
 * and cancel on restart — and the wake ends in exactly one terminal status.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Approval, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

async function start(agent: Record<string, unknown> = {}, thresholdSeconds = 45) {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-demo-approve-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({
      agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', ...agent }],
      channels: { local: { silenceWatchdog: { thresholdSeconds } } },
    }),
  );
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  return { daemon, dir };
}

function approvalWhere(events$: Observable<ApiEvent>, ok: (a: Approval) => boolean): Promise<Approval> {
  return firstValueFrom(
    events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
      filter((e) => ok(e.payload)),
    ),
  ).then((e) => e.payload);
}

function terminal(events$: Observable<ApiEvent>, wakeToken: string): Promise<Wake> {
  return firstValueFrom(
    events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
          e.name === 'wake.status' && e.payload.wakeToken === wakeToken && isTerminal(e.payload.status),
      ),
    ),
  ).then((e) => e.payload);
}

/** Sends `@demo /approve` and resolves once the request is pending, with its wake. */
async function ask(daemon: Daemon): Promise<{ approval: Approval; wake: string; done: Promise<Wake> }> {
  const pending = approvalWhere(daemon.events$, (a) => a.status === 'pending');
  const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /approve' });
  const wake = (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === sent.messageId);
  expect(wake).toBeDefined();
  const token = wake?.wakeToken ?? '';
  const done = terminal(daemon.events$, token);
  return { approval: await pending, wake: token, done };
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('@demo /approve through the assembled daemon', () => {
  it('allow: a pending request on the wake (no beacon while waiting), then the file, the reply, reply_sent', async () => {
    // A 0.3 s silence threshold: without the approval pause the wait below would raise beacons.
    const { daemon, dir } = await start({}, 0.3);
    const { approval, wake, done } = await ask(daemon);
    const workspace = join(dir, 'workspaces', 'demo');
    const file = join(workspace, 'agentteam-demo.txt');
    expect(approval).toMatchObject({
      agentId: 'demo',
      agentName: 'Demo',
      runtime: 'demo',
      wakeTokens: [wake],
      kind: 'file_change',
      tool: 'Write',
      summary: `${file} (+2 −0)`,
      rule: `Write(${file})`,
      status: 'pending',
    });
    expect(approval.detail.split('\n')).toEqual([
      file,
      '+Hello from the AgentTeam demo agent.',
      '+You allowed this write: an agent changes your files only with your approval.',
    ]);
    // Listed like any runtime's request; the wake is still open and nothing is on disk yet.
    expect((await daemon.api['approvals.list']({ status: 'pending' })).map((a) => a.id)).toEqual([approval.id]);
    // The inspector asks for one wake's requests.
    expect((await daemon.api['approvals.list']({ wakeToken: wake })).map((a) => a.id)).toEqual([approval.id]);
    expect(await daemon.api['approvals.list']({ wakeToken: 'wk_other' })).toEqual([]);
    // Absence over time can only be watched: three thresholds of waiting on the operator (fails without the pause).
    await new Promise((r) => setTimeout(r, 900));
    const [open] = await daemon.api['wakes.list']({ target: '#general' });
    expect(open?.status).not.toSatisfy(isTerminal);
    expect(open?.beacons).toBe(0);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });

    const answered = await daemon.api['approvals.answer']({ id: approval.id, decision: 'allow' });
    expect(answered).toMatchObject({ status: 'allowed', scope: 'once' });
    const ended = await done;
    expect(ended.status).toBe('reply_sent');
    expect(ended.finalCheck).toBe(false);
    expect(await readFile(file, 'utf8')).toContain('Hello from the AgentTeam demo agent.');
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.at(-1)).toMatchObject({
      authorKind: 'agent',
      content: `[demo] Wrote agentteam-demo.txt in ${workspace} after you allowed it.`,
    });
    // Answered once: a second answer changes nothing.
    await expect(daemon.api['approvals.answer']({ id: approval.id, decision: 'deny' })).rejects.toMatchObject({
      code: 'approval_settled',
    });
  });

  it('deny with a reason: no file, the demo says so with the reason, reply_sent', async () => {
    const { daemon, dir } = await start();
    const { approval, done } = await ask(daemon);
    await daemon.api['approvals.answer']({ id: approval.id, decision: 'deny', reason: 'not today' });
    expect((await done).status).toBe('reply_sent');
    await expect(readFile(join(dir, 'workspaces', 'demo', 'agentteam-demo.txt'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.at(-1)?.content).toBe(
      '[demo] Nothing was written: the request to write agentteam-demo.txt was denied. Reason: not today',
    );
    expect((await daemon.api['approvals.list']({}))[0]).toMatchObject({ status: 'denied', reason: 'not today' });
  });

  it('expiry (approvalTimeoutSeconds) is a deny: no file, the demo says nobody answered, reply_sent', async () => {
    const { daemon, dir } = await start({ approvalTimeoutSeconds: 1 });
    const { approval, done } = await ask(daemon);
    const expired = await approvalWhere(daemon.events$, (a) => a.id === approval.id && a.status !== 'pending');
    expect(expired.status).toBe('expired');
    expect((await done).status).toBe('reply_sent');
    await expect(readFile(join(dir, 'workspaces', 'demo', 'agentteam-demo.txt'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.at(-1)?.content).toContain('nobody answered the request to write agentteam-demo.txt in time');
  });

  it('a configured cwd is the workspace the demo writes into', async () => {
    const project = await mkdtemp(join(tmpdir(), 'agentteam-demo-project-'));
    dirs.push(project);
    const { daemon } = await start({ cwd: project });
    const { approval, done } = await ask(daemon);
    expect(approval.summary).toBe(`${join(project, 'agentteam-demo.txt')} (+2 −0)`);
    await daemon.api['approvals.answer']({ id: approval.id, decision: 'allow' });
    expect((await done).status).toBe('reply_sent');
    expect(await readFile(join(project, 'agentteam-demo.txt'), 'utf8')).toContain('AgentTeam demo agent');
  });

  it('a daemon restart cancels the pending request; each wake ends in one terminal status', async () => {
    const { daemon, dir } = await start();
    const { approval, wake, done } = await ask(daemon);
    done.catch(() => undefined); // the first daemon's stream completes at its stop
    await daemon.stop();
    const again = await createDaemon({ dataDir: dir });
    daemons.push(again);
    // The old request is cancelled, never left pending; the interrupted wake ends by the contract
    // (§6.6), and its recovery wake is delivered again, so the demo asks again (a new request).
    // It may be asked before this test can subscribe: read the list, as the UI does on connect.
    await expect
      .poll(async () => (await again.api['approvals.list']({ status: 'pending' })).length, { timeout: 10_000 })
      .toBe(1);
    const [asked, old] = await again.api['approvals.list']({});
    expect(old).toMatchObject({ id: approval.id, status: 'cancelled' });
    if (asked === undefined) throw new Error('no pending approval');
    const wakes = await again.api['wakes.list']({});
    // issue 24: failed with the restart's reason (never "no visible reply"), and continued by the recovery.
    expect(wakes.find((w) => w.wakeToken === wake)).toMatchObject({
      status: 'failed',
      reason: 'daemon_restarted',
      recoveries: 1,
    });
    const [recovery] = asked.wakeTokens;
    expect(recovery).not.toBe(wake);
    const ended = terminal(again.events$, recovery ?? '');
    await again.api['approvals.answer']({ id: asked.id, decision: 'deny' });
    expect((await ended).status).toBe('reply_sent');
    await expect(readFile(join(dir, 'workspaces', 'demo', 'agentteam-demo.txt'), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
