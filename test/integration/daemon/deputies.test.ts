/**
 * issue 41 "confused deputy" on the assembled daemon (createDaemon, two demo agents talking to the
 * daemon's MCP server over HTTP like real runtimes): a `read-only` agent's `@helper` does not wake
 * a `full` helper by itself — the operator is asked, as an approval of the author's (so the UI,
 * `agentteam approve` and Telegram answer it). Allowed, the helper is woken in the chain (a hop);
 * denied, no one is. A helper that works in a folder beyond the author's workspace is asked too.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, from, mergeMap, startWith } from 'rxjs';
import { afterEach, expect, it } from 'vitest';
import type { Approval, Wake } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

async function start(agents: unknown[]): Promise<{ daemon: Daemon; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-deputies-'));
  dirs.push(dir);
  await writeFile(join(dir, 'agentteam.json'), JSON.stringify({ agents, channels: { local: {} } }));
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  return { daemon, dir };
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The first pending approval, once there is one (re-checked on each approval event). */
function pendingApproval(daemon: Daemon): Promise<Approval> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e) => e.name === 'approval.updated'),
      startWith(null),
      mergeMap(() => from(daemon.api['approvals.list']({ status: 'pending' }))),
      filter((list) => list.length > 0),
      mergeMap((list) => list.slice(0, 1)),
    ),
  );
}

/** Every wake once at least `count` exist and all are terminal. */
function allTerminal(daemon: Daemon, count: number): Promise<Wake[]> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e) => e.name === 'wake.status'),
      startWith(null),
      mergeMap(() => from(daemon.api['wakes.list']({}))),
      filter((ws) => ws.length >= count && ws.every((w) => isTerminal(w.status))),
    ),
  );
}

const readOnlyAsksFull = [
  { id: 'demo', name: 'Demo', runtime: 'demo', permissions: 'read-only' },
  { id: 'helper', name: 'Helper', runtime: 'demo', permissions: 'full' },
];

it('a read-only agent cannot wake a full one by itself: the operator is asked; allowed, the helper is woken in the chain', async () => {
  const { daemon } = await start(readOnlyAsksFull);
  const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /ask helper rm the build?' });
  const asked = await pendingApproval(daemon);
  expect(asked).toMatchObject({ agentId: 'demo', tool: 'Wake agent', kind: 'other', rule: null, status: 'pending' });
  expect(asked.summary).toContain(
    `wake Helper (helper) in #general: Helper's permission policy "full" is broader than Demo's "read-only"`,
  );
  expect(asked.detail).toContain('@helper rm the build?');
  // Demo's own wake ends as usual; the helper has not been woken.
  const [first] = await allTerminal(daemon, 1);
  expect(first).toMatchObject({ agentId: 'demo', cause: 'operator' });
  expect((await daemon.api['wakes.list']({})).filter((w) => w.agentId === 'helper')).toEqual([]);

  await daemon.api['approvals.answer']({ id: asked.id, decision: 'allow' });
  const wakes = await allTerminal(daemon, 3);
  expect(wakes.find((w) => w.agentId === 'helper')).toMatchObject({
    chainId: sent.messageId,
    cause: 'agent_mention',
    hop: 1,
    askedById: 'demo',
    status: 'reply_sent',
  });
});

it('denied, no one is woken; the message stays stored', async () => {
  const { daemon } = await start(readOnlyAsksFull);
  await daemon.api['messages.send']({ target: '#general', content: '@demo /ask helper ping?' });
  const asked = await pendingApproval(daemon);
  await daemon.api['approvals.answer']({ id: asked.id, decision: 'deny' });
  await allTerminal(daemon, 1);
  const { messages } = await daemon.api['messages.list']({ target: '#general' });
  expect(messages.map((m) => m.authorId)).toEqual(['operator', 'demo']);
  expect((await daemon.api['wakes.list']({})).map((w) => w.agentId)).toEqual(['demo']);
  expect(await daemon.api['chains.list']({})).toMatchObject([{ hops: 0, status: 'open' }]);
});

it("a helper that works in a folder beyond the author's workspace is asked too; an equal or narrower policy in its own folder is not", async () => {
  const base = await mkdtemp(join(tmpdir(), 'agentteam-deputies-ws-'));
  dirs.push(base);
  await mkdir(join(base, 'mine'));
  await mkdir(join(base, 'repo'));
  const { daemon } = await start([
    { id: 'demo', name: 'Demo', runtime: 'demo', cwd: join(base, 'mine') },
    { id: 'helper', name: 'Helper', runtime: 'demo', cwd: join(base, 'repo') },
    { id: 'scratch', name: 'Scratch', runtime: 'demo', permissions: 'read-only' },
  ]);
  await daemon.api['messages.send']({ target: '#general', content: '@demo /ask helper ping?' });
  const asked = await pendingApproval(daemon);
  expect(asked.summary).toContain(
    `Helper works in ${join(base, 'repo')}, outside Demo's workspace ${join(base, 'mine')}`,
  );
  await daemon.api['approvals.answer']({ id: asked.id, decision: 'deny' });
  // A read-only agent in its own default workspace is no deputy: woken at once, nothing asked.
  await daemon.api['messages.send']({ target: '#general', content: '@demo /ask scratch ping?' });
  const wakes = await allTerminal(daemon, 4);
  expect(wakes.find((w) => w.agentId === 'scratch')).toMatchObject({ cause: 'agent_mention', status: 'reply_sent' });
  expect(await daemon.api['approvals.list']({ status: 'pending' })).toEqual([]);
});
