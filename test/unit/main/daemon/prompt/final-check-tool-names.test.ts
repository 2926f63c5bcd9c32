/**
 * issue 38: the final-check names the send tool exactly as the agent's delivery prompt does
 * (contract §8.2, §8.3), for every runtime, every ACP preset and both surfaces. The final-check
 * is rendered the way the daemon renders it: the roster's profile of the agent registered with
 * a real WakeLifecycle, whose port is final-check.ts's one renderer (daemon.ts wires the same).
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { finalCheckRenderer } from '../../../../../main/daemon/prompt/final-check.js';
import { compileDelivery } from '../../../../../main/daemon/prompt/prompt-compiler.js';
import { createWakeMetrics } from '../../../../../main/daemon/metrics/wake-metrics.js';
import { profileOf } from '../../../../../main/daemon/services/agent-roster.js';
import { WakeLifecycle, type WakeDelivery } from '../../../../../main/daemon/wake/index.js';
import {
  ACP_PRESETS,
  AGENT_TOOLS_SURFACES,
  PROMPT_LANGUAGES,
  type AcpPreset,
  type AgentConfig,
  DEFAULT_DAEMON_LIMITS,
} from '../../../../../shared/config.js';
import { MemoryWakeJournal } from '../../../../fixtures/memory-wake-journal.js';
import { sendToolsNamed } from '../../../../fixtures/model-final-checks.js';
import { agentFor, ALL_RUNTIMES, message, tailReminder } from '../../../../fixtures/prompt-agents.js';
import { toolNamingOf } from '../../../../../main/daemon/runtime/registry.js';

/**
 * The send tool each CLI offers its model, as observed on the model wire (research/runtimes.md
 * §2, research/acp.md §1; asserted against the real tool lists by the conformance tests).
 */
const WIRE_NAME: Readonly<Record<AcpPreset, string>> = {
  gemini: 'mcp_agentteam_message_send',
  qwen: 'mcp__agentteam__message_send',
  copilot: 'agentteam-message_send',
};

/** The final-check the daemon would inject for one wake of `agent` (lifecycle → port → renderer). */
function daemonFinalCheck(agent: AgentConfig): string {
  const lifecycle = new WakeLifecycle({
    journal: new MemoryWakeJournal(),
    renderFinalCheck: finalCheckRenderer(toolNamingOf, (id) => (id === agent.id ? agent.agentTools : 'mcp')),
    metrics: createWakeMetrics(new Registry()),
    pendingCapacity: DEFAULT_DAEMON_LIMITS.pendingCapacity,
  });
  lifecycle.registerAgent(profileOf(agent));
  const deliveries: WakeDelivery[] = [];
  const sub = lifecycle.deliveries$.subscribe((d) => deliveries.push(d));
  try {
    lifecycle.enqueue(agent.id, {
      wakeToken: 'wk_1',
      messageId: 'm_1',
      target: '#general',
      targetSeq: 1,
      deliveryClass: 'visible_reply',
    });
    const delivery = deliveries[0];
    if (delivery === undefined) throw new Error('the wake was not delivered');
    lifecycle.onDelivered(agent.id, delivery.generation, ['wk_1']);
    const injection = lifecycle.onTurnBoundary(agent.id, delivery.generation);
    if (injection === null) throw new Error('no final-check at the turn boundary');
    return injection.finalCheck;
  } finally {
    sub.unsubscribe();
    lifecycle.dispose();
  }
}

const AGENTS = ALL_RUNTIMES.flatMap((runtime) => {
  const presets: ReadonlyArray<AcpPreset | undefined> = runtime === 'acp' ? [undefined, ...ACP_PRESETS] : [undefined];
  return presets.flatMap((preset) =>
    AGENT_TOOLS_SURFACES.flatMap((agentTools) =>
      PROMPT_LANGUAGES.map((language) => ({
        name: `${runtime}${preset === undefined ? '' : `/${preset}`} ${agentTools} ${language}`,
        agent: agentFor(runtime, language, {
          agentTools,
          ...(preset === undefined ? {} : { preset, command: undefined, args: [] }),
        }),
      })),
    ),
  );
});

describe('the final-check names the send tool the delivery names (issue 38, contract §8.2/§8.3)', () => {
  it.each(AGENTS)('$name', ({ agent }) => {
    const delivery = compileDelivery(agent, [message({ target: '#general' })], {
      turn: 'wake',
      surface: agent.agentTools,
    });
    const delivered = sendToolsNamed(tailReminder(delivery.text));
    const finalCheck = sendToolsNamed(daemonFinalCheck(agent));
    expect(delivered).toHaveLength(1);
    expect(finalCheck).toEqual(delivered);
    if (agent.preset !== undefined && agent.agentTools === 'mcp') expect(finalCheck).toEqual([WIRE_NAME[agent.preset]]);
  });
});
