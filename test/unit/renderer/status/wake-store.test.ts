import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Wake } from '../../../../shared/api/contract.js';
import { WAKE_STATUSES, isTerminal } from '../../../../shared/wake-status.js';
import { upsertWake } from '../../../../renderer/src/status/wake-store.js';
import { wakeFixture } from '../../../fixtures/scripted-daemon.js';

describe('renderer wake view (contract §6.2)', () => {
  it('applies forward progress', () => {
    let m: ReadonlyMap<string, Wake> = new Map();
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'queued' }));
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'delivered', beacons: 1 }));
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'reply_sent' }));
    expect(m.get('a')?.status).toBe('reply_sent');
  });

  it('ignores a stale active update after a terminal status, and a second terminal status', () => {
    let m: ReadonlyMap<string, Wake> = new Map();
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'completed_without_visible_reply' }));
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'delivered' }));
    m = upsertWake(m, wakeFixture({ wakeToken: 'a', status: 'failed' }));
    expect(m.get('a')?.status).toBe('completed_without_visible_reply');
  });

  it('in any arrival order, once a terminal status is seen the shown status is the first terminal one', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WAKE_STATUSES), { minLength: 1, maxLength: 12 }), (statuses) => {
        let m: ReadonlyMap<string, Wake> = new Map();
        for (const status of statuses) m = upsertWake(m, wakeFixture({ wakeToken: 'a', status }));
        const firstTerminal = statuses.find(isTerminal);
        if (firstTerminal !== undefined) expect(m.get('a')?.status).toBe(firstTerminal);
        else expect(isTerminal(m.get('a')!.status)).toBe(false);
      }),
    );
  });
});
