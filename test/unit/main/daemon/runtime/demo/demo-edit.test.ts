/**
 * issue 40 item 10: the demo's `/edit` is a fresh change each time and `/edit conflict` one whose
 * merge is refused as a conflict, again and again. The demo runtime against the real agentteam
 * MCP server; its workspace a real git worktree made, merged, caught up and reset by the daemon's
 * own git mechanics (git/worktree.ts: ensureWorktree, commitAll, mergeInto, catchUp, resetToBase).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMcpServer, type AgentteamMcpServer } from '../../../../../../main/daemon/mcp/mcp-server.js';
import type { ApprovalAsk } from '../../../../../../main/daemon/runtime/approval-port.js';
import { DemoRuntime, demoCommand } from '../../../../../../main/daemon/runtime/demo/demo-runtime.js';
import {
  catchUp,
  commitAll,
  ensureWorktree,
  mergeInto,
  resetToBase,
} from '../../../../../../main/daemon/git/worktree.js';
import { RecordingCommunicationHandler } from '../../../../../fixtures/recording-communication-handler.js';
import { RuntimeEventRecorder } from '../../../../../fixtures/runtime-event-recorder.js';

const FILE = 'agentteam-demo.txt';
let top: string;
let mcp: AgentteamMcpServer;
let handler: RecordingCommunicationHandler;
let demo: DemoRuntime | undefined;
let rec: RuntimeEventRecorder | undefined;
let asks: ApprovalAsk[];

beforeEach(async () => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'agentteam-demo-edit-')));
  handler = new RecordingCommunicationHandler();
  mcp = await startMcpServer({ handler, limits: { sendsPerMinute: 600, maxMessageBytes: 32_768 } });
  asks = [];
});

afterEach(async () => {
  await demo?.stop();
  rec?.close();
  await mcp.close();
  rmSync(top, { recursive: true, force: true });
});

/** The demo in `workspace`, its every request allowed (the operator's answer is not under test here). */
async function startDemo(workspace: string): Promise<void> {
  demo = new DemoRuntime({
    agentId: 'demo',
    mcp: mcp.issueToken('demo'),
    host: {
      onTurnBoundary: async () => null,
      requestApproval: async (ask) => {
        asks.push(ask);
        return { decision: 'allow', scope: 'once', status: 'allowed', reason: null };
      },
    },
    env: {},
    workspace,
  });
  rec = new RuntimeEventRecorder(demo.events$);
  expect((await demo.start()).ok).toBe(true);
}

/** Sends `command` to the demo and resolves with its reply once the turn ends. */
async function send(command: string): Promise<string> {
  const from = rec?.mark ?? 0;
  const sent = handler.sends.length;
  await demo?.deliver(`@demo ${command}\nexact target "#general"`);
  await rec?.waitFor((e) => e.type === 'turn_end', from);
  expect(handler.sends).toHaveLength(sent + 1);
  return handler.sends.at(-1)?.content ?? '';
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
  }).trim();

describe('/edit', () => {
  it('is its own command', () => {
    expect(demoCommand('@demo /edit')).toBe('edit');
    expect(demoCommand('@demo /edit conflict')).toBe('edit');
    expect(demoCommand('@demo /editor')).toBe('reply');
  });

  it('two edits are two different changes, each asked first; after a discard the next is new again', async () => {
    const workspace = join(top, 'ws');
    mkdirSync(workspace);
    await startDemo(workspace);
    const path = join(workspace, FILE);

    expect(await send('/edit')).toBe(
      `[demo] Wrote edit 1 in ${FILE} in ${workspace}: one new line. Review it, then merge or discard it; send /edit again for another change.`,
    );
    expect(readFileSync(path, 'utf8')).toBe('Edit 1 by the AgentTeam demo agent.\n');
    expect(await send('/edit')).toContain('Wrote edit 2');
    expect(readFileSync(path, 'utf8')).toBe(
      'Edit 1 by the AgentTeam demo agent.\nEdit 2 by the AgentTeam demo agent.\n',
    );
    // The request shows the one new line against the kept ones, as a reviewer reads a diff.
    expect(asks.map((a) => [a.summary, a.detail])).toEqual([
      [`${path} (+1 −0)`, `${path}\n+Edit 1 by the AgentTeam demo agent.`],
      [`${path} (+1 −0)`, `${path}\n Edit 1 by the AgentTeam demo agent.\n+Edit 2 by the AgentTeam demo agent.`],
    ]);

    // A discard takes the file away; the next edit is still a change never made before.
    rmSync(path);
    await send('/edit');
    expect(readFileSync(path, 'utf8')).toBe('Edit 3 by the AgentTeam demo agent.\n');
  });

  it('/edit conflict outside a worktree changes nothing and says why', async () => {
    const workspace = join(top, 'ws');
    mkdirSync(workspace);
    await startDemo(workspace);
    expect(await send('/edit conflict')).toMatch(/^\[demo\] I made no conflicting change: I am not in a worktree/);
    expect(asks).toEqual([]);
  });
});

describe('/edit conflict in a real worktree', () => {
  it('review, merge, a refused merge and discard can be tried again and again; the base and checkout stay the person’s', async () => {
    const repo = join(top, 'project');
    const worktree = join(top, 'worktrees', 'demo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README.txt'), 'project\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    const made = await ensureWorktree({ root: repo, path: worktree, branch: 'agentteam/demo', base: 'main' });
    expect(made).toEqual({ ok: true, value: 'created' });
    await startDemo(worktree);
    const merge = async () => {
      expect((await commitAll(worktree, 'demo work')).ok).toBe(true);
      const r = await mergeInto(repo, 'main', 'agentteam/demo', 'Merge demo', join(top, 'worktrees', '.merge-demo'));
      if (r.ok && r.value.kind === 'merged') await catchUp(worktree, 'main');
      return r.ok ? r.value : r;
    };

    // Nothing on main to conflict with yet: refused, nothing asked or written.
    expect(await send('/edit conflict')).toContain(`main has no ${FILE} yet`);
    expect(asks).toHaveLength(0);

    for (let round = 0; round < 2; round++) {
      await send('/edit');
      expect(await merge()).toMatchObject({ kind: 'merged', how: 'fast-forward' });
      const mainBefore = git(repo, 'rev-parse', 'main');
      const fileOnMain = readFileSync(join(repo, FILE), 'utf8');

      expect(await send('/edit conflict')).toContain('A merge now is refused as a conflict');
      expect(await merge()).toEqual({ kind: 'conflict', files: [FILE] });
      // The refused merge left main, the person's checkout and its file as they were.
      expect(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
      expect(git(repo, 'status', '--porcelain')).toBe('');
      expect(readFileSync(join(repo, FILE), 'utf8')).toBe(fileOnMain);

      // A conflict over unmerged work is refused: the move back would lose it.
      expect(await send('/edit conflict')).toContain('my worktree has changes not on main yet');
      expect((await resetToBase(worktree, 'main')).ok).toBe(true);
    }
    // Every edit was a different line: main holds edits 1 and 3 (2 and 4 were the refused ones).
    expect(readFileSync(join(repo, FILE), 'utf8')).toBe(
      'Edit 1 by the AgentTeam demo agent.\nEdit 3 by the AgentTeam demo agent.\n',
    );
  });
});
