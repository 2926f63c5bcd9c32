import { describe, expect, it } from 'vitest';
import {
  DISMISSED_FAILURES_KEPT,
  dismissFailure,
  loadDismissedFailures,
} from '../../../../renderer/src/status/dismissed-failures.js';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe('dismissed failures (issue 24)', () => {
  it('are remembered per wake across loads', () => {
    const storage = memoryStorage();
    const once = dismissFailure(storage, loadDismissedFailures(storage), 'wk_1');
    expect(dismissFailure(storage, once, 'wk_1')).toBe(once);
    expect([...loadDismissedFailures(storage)]).toEqual(['wk_1']);
  });

  it('keep the newest dismissals only', () => {
    const storage = memoryStorage();
    let set = loadDismissedFailures(storage);
    for (let i = 0; i <= DISMISSED_FAILURES_KEPT; i += 1) set = dismissFailure(storage, set, `wk_${i}`);
    const loaded = loadDismissedFailures(storage);
    expect(loaded.size).toBe(DISMISSED_FAILURES_KEPT);
    expect(loaded.has('wk_0')).toBe(false);
    expect(loaded.has(`wk_${DISMISSED_FAILURES_KEPT}`)).toBe(true);
  });

  it('read nothing from missing, corrupt or foreign storage, and survive a storage that refuses writes', () => {
    expect(loadDismissedFailures(undefined).size).toBe(0);
    expect(loadDismissedFailures(memoryStorage({ 'agentteam.dismissedFailures.v1': '{not json' })).size).toBe(0);
    expect([...loadDismissedFailures(memoryStorage({ 'agentteam.dismissedFailures.v1': '["a",3,null]' }))]).toEqual([
      'a',
    ]);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect([...dismissFailure(refusing, new Set(), 'wk_1')]).toEqual(['wk_1']);
  });
});
