/**
 * issue 42 "What each agent costs": an agent's resident memory and CPU in words, for the agents
 * page, the agent's detail and the Team view (the daemon samples its whole process tree).
 */
import type { Agent } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';

/** e.g. "212 MB"; null when the platform cannot tell. */
export function memoryText(agent: Pick<Agent, 'rssBytes'>): string | null {
  const bytes = agent.rssBytes;
  if (bytes === null || bytes === undefined) return null;
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** "212 MB · CPU 0.4 %", or "0 MB — sleeping…" while asleep; null when the platform cannot tell. */
export function costText(agent: Pick<Agent, 'rssBytes' | 'cpuPercent' | 'state'>, language: Language): string | null {
  const memory = memoryText(agent);
  if (memory === null) return null;
  if (agent.state === 'sleeping') return copy(language, 'agentDetail.costSleeping', { memory });
  const cpu = agent.cpuPercent;
  return cpu === null || cpu === undefined
    ? memory
    : copy(language, 'agentDetail.costCpu', { memory, cpu: cpu.toFixed(1) });
}
