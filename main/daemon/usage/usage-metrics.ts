/**
 * issue 27: what the runtimes reported consuming, per runtime and token kind — never per agent
 * (an agent id is operator data, and unbounded label values would grow the registry).
 */
import { Counter, type Registry } from 'prom-client';
import type { TurnUsage } from '../../../shared/usage.js';
import { RUNTIMES, type RuntimeKind } from '../../../shared/wake-status.js';

const TOKEN_KINDS = ['input', 'output', 'cached'] as const;

export interface UsageMetrics {
  record(runtime: RuntimeKind, usage: TurnUsage): void;
}

export function createUsageMetrics(registry: Registry): UsageMetrics {
  const tokens = new Counter({
    name: 'agentteam_agent_tokens_total',
    help: 'Tokens the runtimes reported, by runtime and kind (input, output, cached)',
    labelNames: ['runtime', 'kind'] as const,
    registers: [registry],
  });
  const cost = new Counter({
    name: 'agentteam_agent_cost_usd_total',
    help: 'Cost in USD the runtimes reported (runtimes that report no cost add nothing)',
    labelNames: ['runtime'] as const,
    registers: [registry],
  });
  // issue 41: a series at 0 per known label set from the start, so the first usage is an increase.
  for (const runtime of RUNTIMES) {
    for (const kind of TOKEN_KINDS) tokens.inc({ runtime, kind }, 0);
    cost.inc({ runtime }, 0);
  }
  return {
    record(runtime, usage) {
      tokens.inc({ runtime, kind: 'input' }, usage.inputTokens);
      tokens.inc({ runtime, kind: 'output' }, usage.outputTokens);
      tokens.inc({ runtime, kind: 'cached' }, usage.cachedTokens);
      if (usage.costUsd !== null) cost.inc({ runtime }, usage.costUsd);
    },
  };
}
