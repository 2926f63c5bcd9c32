import type { AgentConfig } from '../../../shared/config.js';

/**
 * issue 26: the port through which other parts (the per-wake snapshots and the review pane) ask
 * where an isolated agent works. Implemented by `WorktreeService.worktreeOf` (worktrees/worktree-service.ts).
 */

/** An isolated agent's git worktree. */
export interface AgentWorktree {
  /** The worktree's folder (real path): where the agent's runtime works. */
  readonly path: string;
  /** Its branch, `agentteam/<agent id>`. */
  readonly branch: string;
  /** The branch it was made from and merges into (the repository's current branch, or `baseBranch`). */
  readonly base: string;
  /** The top of the person's checkout (the main work tree of the repository `cwd` lies in). */
  readonly repoRoot: string;
}

/** The worktree of an agent with `"isolation": "worktree"` once prepared; null for any other agent. */
export type WorktreeOf = (agentId: string) => AgentWorktree | null;

/**
 * The worktree of an agent as its entry runs: only while it says `"isolation": "worktree"` (an agent
 * switched back to "none" works in its `cwd` again; its worktree stays on disk, unused), else null.
 * One rule for the service's port and the roster's view.
 */
export function isolatedWorktree(
  agent: Pick<AgentConfig, 'id' | 'isolation'> | undefined,
  prepared: ReadonlyMap<string, AgentWorktree>,
): AgentWorktree | null {
  return agent?.isolation === 'worktree' ? (prepared.get(agent.id) ?? null) : null;
}
