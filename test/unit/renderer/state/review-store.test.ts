/**
 * issue 39: the review pane re-reads its changes (up to 2 MB of patches) only when they are
 * recorded (`wake.changes`), never on the wake's statuses or timeline entries.
 */
import { describe, expect, it } from 'vitest';
import type { ApiEvent, ClientApi } from '../../../../shared/api/contract.js';
import { ReviewStore, type ReviewSource } from '../../../../renderer/src/state/review-store.js';
import { wakeFixture } from '../../../fixtures/contract-values.js';

function fakeApi() {
  const listeners = new Set<(e: ApiEvent) => void>();
  const reads: string[] = [];
  const api = {
    events: {
      subscribe(l: (e: ApiEvent) => void) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    wakes: {
      changes: ({ wakeToken }: { wakeToken: string }) => {
        reads.push(wakeToken);
        return Promise.resolve({
          ok: true,
          value: {
            wakeToken,
            agentId: 'demo',
            state: 'pending',
            workspace: '/w',
            reason: null,
            files: [],
            startedAt: null,
            endedAt: null,
          },
        });
      },
    },
    agents: {
      changes: ({ agentId }: { agentId: string }) => {
        reads.push(`base-${agentId}`);
        return Promise.resolve({ ok: true, value: { agentId, branch: 'b', base: 'main', workspace: '/w', files: [] } });
      },
    },
  } as unknown as ClientApi;
  const emit = (e: ApiEvent) => listeners.forEach((l) => l(e));
  return { api, reads, emit };
}

const summary = (wakeToken: string, agentId = 'demo') =>
  ({
    name: 'wake.changes',
    payload: { wakeToken, agentId, state: 'tracked', files: 1, startedAt: null, endedAt: null },
  }) as const;

describe('ReviewStore.follow (issue 39)', () => {
  it("a wake's pane re-reads on that wake's wake.changes only", () => {
    const { api, reads, emit } = fakeApi();
    const source: ReviewSource = { kind: 'wake', wakeToken: 'w1' };
    const stop = new ReviewStore(api, source).follow();
    emit({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w1', agentId: 'demo', status: 'reply_sent' }) });
    emit({
      name: 'wake.timeline',
      payload: {
        wakeToken: 'w1',
        kind: 'delivery',
        status: null,
        reason: null,
        detail: 'delivered',
        at: '2026-01-01T00:00:00.000Z',
      },
    });
    emit(summary('w2'));
    expect(reads).toEqual([]);
    emit(summary('w1'));
    expect(reads).toEqual(['w1']);
    stop();
    emit(summary('w1'));
    expect(reads).toEqual(['w1']);
  });

  it("since base, the pane re-reads on wake.changes of any of the agent's wakes, not on their statuses", () => {
    const { api, reads, emit } = fakeApi();
    const stop = new ReviewStore(api, { kind: 'sinceBase', agentId: 'demo' }).follow();
    emit({ name: 'wake.status', payload: wakeFixture({ wakeToken: 'w1', agentId: 'demo', status: 'delivered' }) });
    emit(summary('w9', 'other'));
    expect(reads).toEqual([]);
    emit(summary('w1'));
    expect(reads).toEqual(['base-demo']);
    stop();
  });
});
