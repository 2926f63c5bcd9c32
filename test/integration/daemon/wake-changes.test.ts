/**
 * issue 26 through the assembled daemon: the demo agent's `/approve` file is a change of its wake
 * (workspace = a real git repository, the person's index and stash untouched); outside git the
 * wake says its changes are not tracked and why; a review comment on a line goes to the agent in
 * the wake's thread and wakes it with `path:line` and the hunk header in its prompt.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Approval } from '../../../shared/api/contract.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import { gitIn as git, makeGitRepo } from '../../fixtures/git-repo.js';
import { changesWhen } from '../../fixtures/wake-changes-watch.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];

async function tempDir(prefix: string): Promise<string> {
  const d = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
}

async function start(cwd?: string): Promise<Daemon> {
  const dir = await tempDir('agentteam-wake-changes-');
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', ...(cwd ? { cwd } : {}) }] }),
  );
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  return daemon;
}

function pendingApproval(daemon: Daemon): Promise<Approval> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
      filter((e) => e.payload.status === 'pending'),
    ),
  ).then((e) => e.payload);
}

afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('the changes of every wake (issue 26)', () => {
  it("the demo agent's /approve file is its wake's change; the person's index and stash are untouched", async () => {
    const repo = makeGitRepo({ 'README.md': 'project\n' }, 'agentteam-person-repo-').path;
    dirs.push(repo);
    await writeFile(join(repo, 'README.md'), 'project\nstashed\n');
    git(repo, 'stash', '-q');
    await writeFile(join(repo, 'notes.txt'), 'the person was already writing this\n');
    const index = await readFile(join(repo, '.git', 'index'));
    const stash = git(repo, 'stash', 'list');

    const daemon = await start(repo);
    const approval = pendingApproval(daemon);
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /approve' });
    const token = (await daemon.api['wakes.list']({ target: '#general' })).find(
      (w) => w.messageId === sent.messageId,
    )!.wakeToken;
    const started = changesWhen(daemon, token, (c) => c.state === 'pending' || c.state === 'tracked');
    const tracked = changesWhen(daemon, token, (c) => c.state === 'tracked');
    expect((await approval).wakeTokens).toEqual([token]);
    // The start snapshot is taken just after delivery, off the turn's path; the operator's answer comes after it.
    expect((await started).state).toBe('pending');
    await daemon.api['approvals.answer']({ id: (await approval).id, decision: 'allow' });

    const changes = await tracked;
    expect((await daemon.api['wakes.list']({ target: '#general' }))[0]?.status).toSatisfy(isTerminal);
    expect(changes).toMatchObject({ wakeToken: token, agentId: 'demo', workspace: repo, reason: null });
    // Exactly the demo's file: the person's own pending work (notes.txt) was there before the wake.
    expect(changes.files.map(({ path, status, added, removed }) => ({ path, status, added, removed }))).toEqual([
      { path: 'agentteam-demo.txt', status: 'added', added: 2, removed: 0 },
    ]);
    expect(changes.files[0]?.patch).toContain('@@ -0,0 +1,2 @@\n+Hello from the AgentTeam demo agent.\n');
    expect((await readFile(join(repo, '.git', 'index'))).equals(index)).toBe(true);
    expect(git(repo, 'stash', 'list')).toBe(stash);
    expect(git(repo, 'status', '--porcelain=v1')).toBe('?? agentteam-demo.txt\n?? notes.txt\n');

    // A review comment on the file's first line: a message to the agent in the wake's thread, which wakes it.
    const comment = await daemon.api['wakes.comment']({
      wakeToken: token,
      path: 'agentteam-demo.txt',
      line: 1,
      side: 'new',
      hunkHeader: '@@ -0,0 +1,2 @@',
      lineText: 'Hello from the AgentTeam demo agent.',
      text: 'Say hello in French instead.',
    });
    expect(comment.target).toMatch(/^#general:[0-9a-f]+$/);
    const wakes = await daemon.api['wakes.list']({ target: comment.target });
    const reviewWake = wakes.find((w) => w.messageId === comment.messageId);
    expect(reviewWake?.agentId).toBe('demo');
    const inspected = await daemon.api['wakes.inspect']({ wakeToken: reviewWake!.wakeToken });
    const prompt = inspected.promptInputs.map((p) => p.text).join('\n');
    expect(prompt).toContain('agentteam-demo.txt:1, in hunk @@ -0,0 +1,2 @@');
    expect(prompt).toContain('Say hello in French instead.');
  });

  it('outside git the wake says its changes are not tracked, and why', async () => {
    const daemon = await start();
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo hello' });
    const token = (await daemon.api['wakes.list']({ target: '#general' })).find(
      (w) => w.messageId === sent.messageId,
    )!.wakeToken;
    const changes = await changesWhen(daemon, token, (c) => c.state === 'untracked' && c.endedAt !== null);
    expect(changes.files).toEqual([]);
    expect(changes.reason).toMatch(/workspaces\/demo is not inside a git work tree, so its changes are not tracked/);
  });

  it('a wake that never reached a runtime answers "none"; an unknown wake is an error naming it', async () => {
    const daemon = await start();
    await expect(daemon.api['wakes.changes']({ wakeToken: 'wk_missing' })).rejects.toMatchObject({
      code: 'unknown_wake',
      message: 'There is no wake "wk_missing".',
    });
    await expect(daemon.api['agents.changes']({ agentId: 'demo' })).rejects.toMatchObject({ code: 'not_isolated' });
  });
});
