/**
 * Which agents a message wakes (DESIGN.md data flow: "router (mentions / DM)").
 * In a channel or channel thread: every agent mentioned as `@id`. In a DM with an agent (or a
 * thread of it): that agent, plus any other agent mentioned. issue 25: an agent's message wakes
 * the agents it addresses the same way — never its author (an agent never wakes itself), each
 * at most once. Whether an agent-caused wake is admitted at all is the chain's hop budget's
 * decision (teams/team-service.ts), which is what keeps agents from echoing forever (contract §2).
 */
import { mentionedIds } from '../../../shared/mention.js';
import type { Target } from '../../../shared/target.js';

/**
 * The agents to wake for a message, in a stable order (DM agent first, then mentions as written).
 * Unknown ids are ignored; an agent author (`authorId`) is never among them.
 */
export function agentsToWake(input: {
  readonly target: Target;
  readonly authorKind: 'operator' | 'agent';
  /** The author's member id (an agent's own mention or DM wakes no one). */
  readonly authorId?: string;
  readonly content: string;
  readonly agentIds: ReadonlySet<string>;
}): string[] {
  const self = input.authorKind === 'agent' ? input.authorId : undefined;
  if (input.authorKind === 'agent' && self === undefined) return [];
  const wake: string[] = [];
  const add = (id: string) => {
    if (id !== self && input.agentIds.has(id) && !wake.includes(id)) wake.push(id);
  };
  if (input.target.kind === 'dm') add(input.target.member);
  for (const id of mentionedIds(input.content)) add(id);
  return wake;
}
