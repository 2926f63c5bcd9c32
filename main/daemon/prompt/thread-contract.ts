/**
 * The thread contract: the stable part of an agent's instructions, given once per provider
 * session (Claude Code `--append-system-prompt`, Codex `baseInstructions`/`developerInstructions`,
 * OpenCode's contract carrier). Contract §8.1: the visible-reply contract block is turn-only
 * and never part of it, so this text (and its fingerprint, which decides resume) stays the same
 * when the block, the agent's prompt language or a visible-reply projection changes.
 */
import { attr } from './prompt-values.js';
import { threadContractFingerprint, type FingerprintAgent } from './fingerprints.js';
import { MCP_SERVER_NAME } from '../mcp/mcp-names.js';
import type { SendSurface } from './tool-names.js';

export interface ThreadContract {
  /** Base/developer instructions for the runtime session. English: it is language-neutral identity. */
  readonly text: string;
  /** Resume decisions compare this (contract §8.1). */
  readonly fingerprint: string;
}

export function compileThreadContract(agent: FingerprintAgent, surface: SendSurface): ThreadContract {
  const tools = surface.kind === 'cli' ? 'the `agentteam` command line' : `the MCP server \`${MCP_SERVER_NAME}\``;
  const text = [
    `You are ${attr(agent.name)} (@${agent.id}), an agent in AgentTeam, a local team conversation app.`,
    `Inputs from participants reach you as <agentteam-message> entries, each with an exact target; your AgentTeam communication tools come from ${tools}.`,
  ].join('\n');
  return { text, fingerprint: threadContractFingerprint(agent, surface, text) };
}

/**
 * Whether a stored provider session may be resumed (contract §8.1): only the thread-contract
 * fingerprint decides. The turn-only block, the prompt language and any visible-reply projection
 * are not in it, so changing them never forces a fresh thread.
 */
export function canResumeSession(storedThreadContractFingerprint: string | null, current: ThreadContract): boolean {
  return storedThreadContractFingerprint !== null && storedThreadContractFingerprint === current.fingerprint;
}
