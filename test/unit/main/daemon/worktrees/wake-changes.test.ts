/**
 * issue 26: the changes of a wake whose start and end reach the service together (a fast turn
 * while the agent's previous snapshot ran, on a busy machine): the wake still ends, and says why
 * its changes cannot be told apart; outside git it is `untracked` and ended (real git, temp dirs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { WakeChanges, type WakeChangesTablePort } from '../../../../../main/daemon/worktrees/wake-changes.js';
import type { WakeChangesRecord } from '../../../../../main/daemon/store/tables/wake-changes-table.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import type { WakeStatus } from '../../../../../shared/wake-status.js';
import type { WakeChangesSummary } from '../../../../../shared/api/contract.js';
import { makeGitRepo, type GitRepo } from '../../../../fixtures/git-repo.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

/** The table's contract in memory: a start once per wake, an end once. */
function memoryTable(): WakeChangesTablePort & { rows: Map<string, WakeChangesRecord> } {
  const rows = new Map<string, WakeChangesRecord>();
  return {
    rows,
    start(r) {
      if (rows.has(r.wakeToken)) return false;
      rows.set(r.wakeToken, { ...r, endTree: null, files: [], startedAt: r.at, endedAt: null });
      return true;
    },
    end(r) {
      const rec = rows.get(r.wakeToken);
      if (rec === undefined || rec.endedAt !== null) return false;
      rows.set(r.wakeToken, {
        ...rec,
        state: r.state,
        reason: r.reason,
        endTree: r.endTree,
        files: r.files,
        endedAt: r.at,
      });
      return true;
    },
    get: (wakeToken) => rows.get(wakeToken),
  };
}

const status = (wakeToken: string, s: WakeStatus): WakeStatusEvent =>
  ({ type: 'wake_status', wakeToken, agentId: 'demo', status: s }) as WakeStatusEvent;

const cleanups: Array<GitRepo | TempDir> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c.remove();
});

function service(workspace: string) {
  const table = memoryTable();
  const statuses = new Subject<WakeStatusEvent>();
  const changed: string[] = [];
  const summaries: WakeChangesSummary[] = [];
  const changes = new WakeChanges({
    table,
    wakeStatus$: statuses,
    workspaceOf: () => workspace,
    changed: (t) => {
      changed.push(t.wakeToken);
      summaries.push(t);
    },
  });
  changes.start();
  return { table, statuses, changed, summaries, changes };
}

describe('WakeChanges: start and end of one wake in the same moment', () => {
  it('in git: the wake ends failed with the reason (never pending for ever, never "no changes")', async () => {
    const repo = makeGitRepo({ 'a.txt': 'one\n' });
    cleanups.push(repo);
    const { table, statuses, changed, summaries, changes } = service(repo.path);
    writeFileSync(join(repo.path, 'a.txt'), 'ONE\n');
    statuses.next(status('w1', 'delivered'));
    statuses.next(status('w1', 'reply_sent'));
    await changes.idle();
    const rec = table.rows.get('w1');
    expect(rec).toMatchObject({ state: 'failed', files: [] });
    expect(rec?.endedAt).not.toBeNull();
    expect(rec?.reason).toMatch(/ended before its start snapshot could be taken/);
    expect(changed).toEqual(['w1', 'w1']);

    // The next wake, started and ended apart, is tracked as usual from the tree this one ended on.
    statuses.next(status('w2', 'delivered'));
    await changes.idle();
    writeFileSync(join(repo.path, 'a.txt'), 'ONE\nTWO\n');
    statuses.next(status('w2', 'reply_sent'));
    await changes.idle();
    expect(table.rows.get('w2')).toMatchObject({ state: 'tracked', reason: null });
    expect(table.rows.get('w2')?.files.map((f) => [f.path, f.added, f.removed])).toEqual([['a.txt', 1, 0]]);
    // issue 39: each record is reported as its state and file count, as stored (the patches stay in the store).
    expect(summaries.map((c) => [c.wakeToken, c.state, c.files, c.endedAt === null])).toEqual([
      ['w1', 'pending', 0, true],
      ['w1', 'failed', 0, false],
      ['w2', 'pending', 0, true],
      ['w2', 'tracked', 1, false],
    ]);
    await changes.dispose();
  });

  it('outside git: untracked, and ended', async () => {
    const dir = makeTempDir('agentteam-wake-changes-unit-');
    cleanups.push(dir);
    const { table, statuses, changes } = service(dir.path);
    statuses.next(status('w1', 'delivered'));
    statuses.next(status('w1', 'completed_without_visible_reply'));
    await changes.idle();
    expect(table.rows.get('w1')).toMatchObject({ state: 'untracked' });
    expect(table.rows.get('w1')?.endedAt).not.toBeNull();
    await changes.dispose();
  });
});
