/**
 * issue 27: what the runtimes reported consuming, per runtime and token kind — never per agent
 * (an agent id is operator data, and unbounded label values would grow the registry).
 */
import { Counter, type Registry } from 'prom-client';
import type { TurnUsage } from '../../../shared/usage.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';

export interface UsageMetrics {
  record(runtime: RuntimeKind, usage: TurnUsage): void;
}

export function createUsageMetrics(registry: Registry): UsageMetrics {
  const tokens = new Counter({
    name: 'agent_tokens_total',
    help: 'Tokens the runtimes reported, by runtime and kind (input, output, cached)',
    labelNames: ['runtime', 'kind'] as const,
    registers: [registry],
  });
  const cost = new Counter({
    name: 'agent_cost_usd_total',
    help: 'Cost in USD the runtimes reported (runtimes that report no cost add nothing)',
    labelNames: ['runtime'] as const,
    registers: [registry],
  });
  return {
    record(runtime, usage) {
      tokens.inc({ runtime, kind: 'input' }, usage.inputTokens);
      tokens.inc({ runtime, kind: 'output' }, usage.outputTokens);
      tokens.inc({ runtime, kind: 'cached' }, usage.cachedTokens);
      if (usage.costUsd !== null) cost.inc({ runtime }, usage.costUsd);
    },
  };
}
