/**
 * issue 43 "a dropped connection is a runtime exit … the agent reads not ready until the host
 * answers again, recovery continues then": an agent on another host is probed again when its
 * runtime is restarted (the exit may be its host's) and once it is up after a host refusal; a
 * host refusal holds its start back with its own reason. An agent on this machine is not probed
 * at a restart (its CLI did not go anywhere).
 */
import { describe, expect, it } from 'vitest';
import { AgentConfigSchema, type AgentConfig } from '../../../../../shared/config.js';
import type { ReadinessProbe } from '../../../../../main/daemon/runtime/cli-probe.js';
import { AgentReadinessService } from '../../../../../main/daemon/services/agent-readiness.js';

const agent = (extra: Record<string, unknown>): AgentConfig =>
  AgentConfigSchema.parse({ id: 'far', name: 'Far', runtime: 'claude-code', ...extra });

function service(a: AgentConfig) {
  let outcome: ReadinessProbe['outcome'] = 'ready';
  const asked: string[] = [];
  const readiness = new AgentReadinessService({
    agents: [a],
    restartCap: 5,
    probe: (x) => {
      asked.push(x.id);
      return Promise.resolve({ outcome, cliVersion: '2.0.0', detail: `said ${outcome}`, checkedAt: 'now' });
    },
    changed: () => undefined,
  });
  return { readiness, asked, answer: (o: ReadinessProbe['outcome']) => (outcome = o) };
}

describe('readiness of an agent on another host after a drop (issue 43)', () => {
  it('is probed again at a restart: reads host_unreachable, holds its start back with that reason, and reads ready once the host answers', async () => {
    const far = agent({ host: 'ssh://dev@box' });
    const s = service(far);
    await s.readiness.check();
    expect(s.readiness.readiness(far, 'idle')).toMatchObject({ state: 'ready', ready: true });

    // The connection dropped: the runtime restarts, and the host does not answer.
    s.answer('host_unreachable');
    s.readiness.restart(far, 1);
    await expect.poll(() => s.readiness.readiness(far, 'starting').state).toBe('host_unreachable');
    expect(s.asked).toHaveLength(2);
    expect(s.readiness.readiness(far, 'starting')).toMatchObject({
      state: 'host_unreachable',
      ready: false,
      reason: 'host_unreachable',
    });
    expect(s.readiness.refusal(far)).toMatchObject({
      code: 'host_unreachable',
      message: expect.stringContaining('said host_unreachable'),
    });

    // The host answers: the restart succeeds, the agent is probed once more and reads ready.
    s.answer('ready');
    s.readiness.restart(far, null);
    await expect.poll(() => s.readiness.readiness(far, 'idle').state).toBe('ready');
    expect(s.asked).toHaveLength(3);
    expect(s.readiness.readiness(far, 'idle')).toMatchObject({ state: 'ready', ready: true });
    expect(s.readiness.refusal(far)).toBeNull();
  });

  it('an agent on this machine is not probed at a restart', async () => {
    const near = agent({});
    const s = service(near);
    await s.readiness.check();
    s.readiness.restart(near, 1);
    s.readiness.restart(near, null);
    // A probe would have been asked synchronously (check calls it at once).
    expect(s.asked).toHaveLength(1);
  });
});
