/**
 * issue 14: an agent's workspace and permission policy chosen in the UI, and its "always" rules
 * revoked there. agentteam.json stays the one source (issue 17): each change is validated, then
 * written through the config source's one write path (only that key, atomic, reloaded — the same
 * path Settings "Save" and an "always" answer use), and the UI's view follows from the file.
 *
 * - A workspace must be absolute and an existing folder (runtime/workspace.ts, the check every
 *   start makes) that does not overlap the data dir (issue 29); a bad one is refused naming the
 *   path, and nothing is written.
 * - A changed workspace or policy restarts the agent's runtime with the new configuration (the
 *   daemon's `restart`, which replaces the process as a crash restart does, contract §6.6).
 * - issue 26: `isolation` and `baseBranch` are checked by the API's schema (the config's own); a
 *   worktree that cannot be made is reported by the restart (the agent's readiness names the path and the fix).
 * - A revoked rule needs no restart: approvals read the rules from the file at each request.
 */
import { ApiError } from '../../../shared/api/contract.js';
import type { AgentConfig, Config } from '../../../shared/config.js';
import { agentSettingsEdits, type AgentSettingsChange } from '../config/agent-edits.js';
import type { JsonEdit } from '../config/json-edit.js';
import { checkChosenWorkspace, type PrivateDirs } from '../runtime/workspace.js';

export interface AgentSettingsOptions {
  /** The config source (its `write` is the one write path; `config` what is in effect now). */
  readonly source: {
    readonly config: Config;
    write(edits: (fresh: Config) => readonly JsonEdit[]): void;
  };
  /** issue 29: the folders a chosen workspace must not overlap (the data dir, the app's folder). */
  readonly privateDirs: PrivateDirs;
  /** issue 29: the daemon's "always" grants (approvals/agent-grants.ts). */
  readonly grants: { revoke(agentId: string, rule: string): void; confirm(agentId: string, rule: string): void };
  /** Restarts the agent's runtime with its configuration as the file has it now. */
  readonly restart: (agent: AgentConfig, change: { readonly workspaceChanged: boolean }) => void;
}

export class AgentSettings {
  readonly #o: AgentSettingsOptions;

  constructor(options: AgentSettingsOptions) {
    this.#o = options;
  }

  /** Validates and saves the change; restarts the agent when something changed. Returns whether it did. */
  update(agentId: string, change: AgentSettingsChange): boolean {
    const before = this.#agent(agentId);
    let cwd = change.cwd;
    if (cwd !== undefined) {
      const checked = checkChosenWorkspace(agentId, cwd, this.#o.privateDirs);
      if (!checked.ok) throw new ApiError('workspace_invalid', `${checked.message} Nothing was changed.`);
      cwd = checked.path;
    }
    const next: AgentSettingsChange = { ...change, ...(cwd === undefined ? {} : { cwd }) };
    let changed = false;
    this.#o.source.write((fresh) => {
      const edits = agentSettingsEdits(fresh, agentId, next);
      changed = edits.length > 0;
      return edits;
    });
    if (!changed) return false;
    const after = this.#agent(agentId);
    // issue 26: another isolation or base is another folder to work in, as a new `cwd` is.
    const workspaceChanged =
      after.cwd !== before.cwd || after.isolation !== before.isolation || after.baseBranch !== before.baseBranch;
    this.#o.restart(after, { workspaceChanged });
    return true;
  }

  /** Takes back exactly `rule` (the grant and its line in agentteam.json); it stops answering at once (no restart). */
  revokeRule(agentId: string, rule: string): void {
    this.#agent(agentId);
    this.#o.grants.revoke(agentId, rule);
  }

  /** issue 29: the operator confirms a rule agentteam.json lists without a grant; it applies from now on. */
  confirmRule(agentId: string, rule: string): void {
    this.#agent(agentId);
    this.#o.grants.confirm(agentId, rule);
  }

  #agent(agentId: string): AgentConfig {
    const agent = this.#o.source.config.agents.find((a) => a.id === agentId);
    if (agent === undefined) throw new ApiError('unknown_agent', `There is no agent "${agentId}" in agentteam.json.`);
    return agent;
  }
}
