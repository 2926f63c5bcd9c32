/**
 * issue 26 end to end: a real `agentteam serve` (child process) with the demo agent isolated in a
 * git worktree of a real repository. The demo's `/approve` file is written in its worktree, never
 * the person's checkout; `agentteam merge` without the operator key is refused (operator_only),
 * with it the base has the file and the checkout is clean; a daemon restart keeps the agent in its worktree.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { connectDaemon } from '../../../main/serve/daemon-client.js';
import { agentteamCliArgs } from '../../fixtures/agentteam-cli.js';
import { agentState, serveChild, type ServeChild } from '../../fixtures/serve-child.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const top = realpathSync(mkdtempSync(join(tmpdir(), 'agentteam-worktree-')));
const dataDir = join(top, 'data');
const repo = join(top, 'project');
const home = join(dataDir, 'home');
let serve: ServeChild | undefined;

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  rmSync(top, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
  }).trim();

function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...agentteamCliArgs(), ...args, '--data-dir', dataDir], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function worktreeOfDemo() {
  const c = await connectDaemon(dataDir);
  if (!c.ok) throw new Error(c.message);
  try {
    const r = await c.client.call('agents.list', {});
    return r.ok ? (r.value.find((a) => a.id === 'demo')?.worktree ?? null) : null;
  } finally {
    c.client.close();
  }
}

it(
  'an isolated demo agent writes in its worktree; merge is the operator’s and lands in a clean checkout; a restart keeps the worktree',
  { timeout: 120_000 },
  async () => {
    mkdirSync(home, { recursive: true });
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.txt'), 'project\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(
      join(dataDir, 'agentteam.json'),
      JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo', cwd: repo, isolation: 'worktree' }] }),
    );
    serve = await serveChild(dataDir);
    await agentState(dataDir, serve, 'demo', 'idle', 30_000);
    const worktree = await worktreeOfDemo();
    expect(worktree).toEqual({
      path: join(top, 'data-worktrees', 'demo'),
      branch: 'agentteam/demo',
      base: 'main',
      repoRoot: repo,
    });

    const c = await connectDaemon(dataDir);
    if (!c.ok) throw new Error(c.message);
    try {
      expect((await c.client.call('messages.send', { target: '#general', content: '@demo /approve' })).ok).toBe(true);
      let pending: string | undefined;
      for (let i = 0; i < 100 && pending === undefined; i++) {
        const r = await c.client.call('approvals.list', { status: 'pending' });
        pending = r.ok ? r.value[0]?.id : undefined;
        if (pending === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      const key = { AGENTTEAM_OPERATOR_KEY: serve.operatorKey };
      expect((await cli(['approve', pending ?? ''], key)).code).toBe(0);
      const written = join(worktree?.path ?? '', 'agentteam-demo.txt');
      for (let i = 0; i < 100 && !existsSync(written); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(written)).toBe(true);
      expect(existsSync(join(repo, 'agentteam-demo.txt'))).toBe(false);
      await agentState(dataDir, serve, 'demo', 'idle', 30_000);

      const changes = await c.client.call('worktree.changes', { agentId: 'demo' });
      expect(changes.ok && changes.value.uncommitted.map((f) => f.path)).toEqual(['agentteam-demo.txt']);

      // Only the operator merges: a CLI without this start's operator key (an earlier start's) is refused.
      const refused = await cli(['merge', '--agent', 'demo'], { AGENTTEAM_OPERATOR_KEY: 'x'.repeat(43) });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain('operator_only');
      expect(existsSync(join(repo, 'agentteam-demo.txt'))).toBe(false);
      const noYes = await cli(['discard', '--agent', 'demo'], key);
      expect(noYes.code).toBe(2);
      expect(noYes.stderr).toContain('--yes is required');

      const merged = await cli(['merge', '--agent', 'demo', '--message', 'Demo file'], key);
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout).toContain('fast-forward');
      expect(existsSync(join(repo, 'agentteam-demo.txt'))).toBe(true);
      expect(git(repo, 'log', '-1', '--format=%s')).toBe('Demo file');
      expect(git(repo, 'status', '--porcelain')).toBe('');
    } finally {
      c.client.close();
    }

    // A daemon restart keeps the agent in its worktree (its uncommitted work too).
    writeFileSync(join(worktree?.path ?? '', 'draft.txt'), 'draft\n');
    serve.child.kill('SIGTERM');
    await serve.exited;
    serve = await serveChild(dataDir);
    await agentState(dataDir, serve, 'demo', 'idle', 30_000);
    expect(await worktreeOfDemo()).toEqual(worktree);
    expect(existsSync(join(worktree?.path ?? '', 'draft.txt'))).toBe(true);
  },
);
