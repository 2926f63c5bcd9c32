/**
 * issue 39: the worktrees room's git check is a value built before the roster (`worktreeGit`): the
 * roster's readiness probe and the room's service ask the same one check, so git is checked once
 * and the root needs no forward reference into the room for the probe.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../../../main/daemon/store/index.js';
import type { WakeStatusEvent } from '../../../../../main/daemon/wake/wake-status-event.js';
import type { GitAvailability } from '../../../../../main/daemon/worktrees/worktree-service.js';
import { wireWorktrees, worktreeHome } from '../../../../../main/daemon/worktrees/worktree-wiring.js';

describe('wireWorktrees (issue 39)', () => {
  it("the service checks git with the room's one check, the one the roster's probe is decorated with", async () => {
    const old: GitAvailability = { usable: false, detail: 'git 2.20.0 is too old: install git 2.30 or newer' };
    let checks = 0;
    const check = () => ((checks += 1), Promise.resolve(old));
    const home = { ...worktreeHome(), check };
    const room = wireWorktrees({
      dataDir: '/nonexistent',
      store: {} as Store,
      lifecycle: { wakeStatus$: new Subject<WakeStatusEvent>() },
      agents: { agent: () => undefined, turnRunning: () => false, changed: () => {} },
      home,
      log: { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} },
    });
    expect(await room.service.git()).toBe(old);
    expect(await room.service.git()).toBe(old);
    expect(checks).toBe(1);
    await room.dispose();
  });
});
