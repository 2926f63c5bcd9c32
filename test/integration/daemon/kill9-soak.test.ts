/**
 * issue 16, bounded kill -9 soak in CI: 200 operator sends to the demo agent through a real
 * `agentteam serve` child, 3 `kill -9`s of the daemon while wakes are in flight, a restart on the
 * same data dir each time. Nothing acknowledged is lost or stored twice, sequences stay gap-free,
 * every wake ends, in-flight wakes are recovered once (contract §6.6) and each recovery wake is
 * answered once or ends `failed` with its reason. The longer run is `npm run bench -- soak`.
 */
import { describe, expect, it } from 'vitest';
import { runKill9Soak } from '../../fixtures/kill9-soak.js';

describe('kill -9 soak (issue 16)', () => {
  it('200 sends, 3 daemon kills: 0 lost, 0 duplicated, gap-free, every wake terminal, recovered wakes answered once', async () => {
    const report = await runKill9Soak({ sends: 200, kills: 3, slowEvery: 7, taskMs: 150, burst: 8 });
    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(3);
    expect(report.lost).toBe(0);
    expect(report.duplicated).toBe(0);
    expect(report.gapFree).toBe(true);
    expect(report.nonTerminal).toBe(0);
    expect(report.acked).toBeGreaterThanOrEqual(200 - 3 * 8);
    // The kills landed while work was in flight, and that work was recovered, not dropped.
    expect(report.recoveredWakes).toBeGreaterThan(0);
    expect(report.recoveryWakes).toBeGreaterThan(0);
    expect(report.recoveryAnswered + report.recoveryFailed).toBe(report.recoveryWakes);
    expect(report.recoveryAnsweredTwiceOrSilently).toBe(0);
  }, 300_000);
});
