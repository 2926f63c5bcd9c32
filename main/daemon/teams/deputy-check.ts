/**
 * issue 41 "confused deputy": an agent's message may wake another agent only within what the
 * author itself may do. Waking an agent whose permission policy is broader than the author's, or
 * who works in a folder the author's workspace does not contain, lets the author act through it —
 * a `read-only` agent asking a `full` one to run what it may not. Such a wake waits for the
 * operator's OK, asked like any approval (approvals/approval-service.ts), so the UI, the CLI and
 * Telegram answer it; team-service.ts holds the wake until then.
 */
import { relative, isAbsolute, join } from 'node:path';
import type { AgentConfig, PermissionPolicy } from '../../../shared/config.js';
import { workspaceOf } from '../runtime/workspace.js';

/** How much a policy lets an agent's runtime do unasked: read-only < ask < auto-edit < full. */
const POLICY_RANK: Readonly<Record<PermissionPolicy, number>> = { 'read-only': 0, ask: 1, 'auto-edit': 2, full: 3 };

/** What the check needs of an agent: its policy and its workspace (resolved, runtime/workspace.ts `workspaceOf`). */
export interface DeputyAgent {
  readonly id: string;
  readonly name: string;
  readonly permissions: PermissionPolicy;
  readonly workspace: string;
}

const within = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Why `author` waking `woken` needs the operator's OK, or null when it does not. A woken agent's
 * own default workspace (`<data-dir>/workspaces/<id>`, holding nothing of the person's) is no
 * reach beyond the author's; any other folder must lie in the author's workspace.
 */
function deputyReason(author: DeputyAgent, woken: DeputyAgent, dataDir: string): string | null {
  if (POLICY_RANK[woken.permissions] > POLICY_RANK[author.permissions])
    return `${woken.name}'s permission policy "${woken.permissions}" is broader than ${author.name}'s "${author.permissions}"`;
  const ownDefault = woken.workspace === join(dataDir, 'workspaces', woken.id);
  if (!ownDefault && !within(author.workspace, woken.workspace))
    return `${woken.name} works in ${woken.workspace}, outside ${author.name}'s workspace ${author.workspace}`;
  return null;
}

/** The check as the team service asks it, over the agents as they run (`AgentRoster.agent`). */
export function deputyCheckOf(
  agentOf: (agentId: string) => Pick<AgentConfig, 'id' | 'name' | 'permissions' | 'cwd'> | undefined,
  dataDir: string,
): (authorId: string, agentId: string) => string | null {
  const view = (a: Pick<AgentConfig, 'id' | 'name' | 'permissions' | 'cwd'>): DeputyAgent => ({
    id: a.id,
    name: a.name,
    permissions: a.permissions,
    workspace: workspaceOf(a.cwd, dataDir, a.id),
  });
  return (authorId, agentId) => {
    const author = agentOf(authorId);
    const woken = agentOf(agentId);
    // Not an agent that runs (gone from the file): nothing to compare; the router wakes only agents that run.
    if (author === undefined || woken === undefined) return null;
    return deputyReason(view(author), view(woken), dataDir);
  };
}
