/**
 * How a prompt names the AgentTeam communication tools (DESIGN.md "MCP server"; research/runtimes.md
 * "Pitfalls"). Prompts must name the tool the runtime actually offers (contract §8.2, §8.3), so
 * every prompt renders its tool reference from here, with the naming its runtime's descriptor
 * gives (`McpToolNaming`).
 */
import type { AcpPreset, AGENT_TOOLS_SURFACES, PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import { MCP_SERVER_NAME, TOOL_MESSAGE_SEND, type McpTool } from '../mcp/mcp-names.js';

/**
 * `mcp`: the runtime reaches the daemon's MCP server (every runtime kind, including the
 * in-process demo agent over the SDK client). `cli`: an agent whose only communication
 * surface is the `agentteam` agent-tools command line (contract §11 Phase 2 "CLI agent-tools"),
 * chosen per agent with `"agentTools": "cli"` in agentteam.json.
 */
export type SendSurfaceKind = (typeof AGENT_TOOLS_SURFACES)[number];

export interface SendSurface {
  readonly kind: SendSurfaceKind;
  /** The exact name the model sees for `message_send` (for `cli`, the command). */
  readonly sendTool: string;
  /** Codex offers MCP tools inside one namespace tool; null where tools are flat. */
  readonly namespace: string | null;
}

/**
 * The CLI agent-tools command an agent runs to send (agent-tools variant of `message_send`;
 * DESIGN.md "More CLI"): `agentteam agent send`, authenticated by the agent's own token from its
 * environment. Never `agentteam send`, which posts as the operator.
 */
export const CLI_SEND_COMMAND = 'agentteam agent send';

/**
 * The full command line for one target (`<target>` when generic), with the reply in `--content`.
 * Single quotes: the shell expands nothing inside them (a reply with `$` or backquotes stays
 * text), and an exact command like this one never needs approval (runtime/agent-cli-command.ts).
 */
export function cliSendCommand(target: string): string {
  return `${CLI_SEND_COMMAND} --target '${target}' --content '<reply>'`;
}

/**
 * How a runtime presents our MCP tools to its model, as seen on the wire (research/runtimes.md §2,
 * research/acp.md §1): Claude Code `mcp__agentteam__<tool>`, Codex `<tool>` inside namespace
 * `mcp__agentteam`, OpenCode `agentteam_<tool>`, each ACP preset its own, the demo the bare name.
 * issue 39 "Plug-ins": each runtime's descriptor says it (`toolNaming`, runtime/registry.ts
 * `toolNamingOf`); this room sits below the runtime room, so it is handed the naming and never
 * asks which runtime it is.
 */
export interface McpToolNaming {
  /** The exact name the model sees for one of our tools. */
  name(tool: McpTool): string;
  /** The namespace tool the runtime groups MCP tools under (Codex); null where tools are flat. */
  readonly namespace: string | null;
}

/** The naming of an agent's runtime (runtime/registry.ts `toolNamingOf`), for renderers that get only the ids. */
export type ToolNamingOf = (agent: { readonly runtime: RuntimeKind; readonly preset?: AcpPreset }) => McpToolNaming;

export function sendSurfaceFor(naming: McpToolNaming, kind: SendSurfaceKind = 'mcp'): SendSurface {
  if (kind === 'cli') return { kind, sendTool: CLI_SEND_COMMAND, namespace: null };
  return { kind, sendTool: naming.name(TOOL_MESSAGE_SEND), namespace: naming.namespace };
}

/** How a prompt refers to the send tool, e.g. "`message_send` (tool namespace `mcp__agentteam`)". */
export function sendToolRef(surface: SendSurface, language: PromptLanguage): string {
  if (surface.kind === 'cli') return `\`${CLI_SEND_COMMAND}\``;
  const name = `\`${surface.sendTool}\``;
  if (surface.namespace !== null)
    return language === 'zh-CN'
      ? `${name}（工具命名空间 \`${surface.namespace}\`）`
      : `${name} (tool namespace \`${surface.namespace}\`)`;
  // A bare tool name (the demo's, a custom ACP agent's) says which server it belongs to.
  if (surface.sendTool === TOOL_MESSAGE_SEND)
    return language === 'zh-CN'
      ? `${name}（MCP 服务器 \`${MCP_SERVER_NAME}\`）`
      : `${name} (MCP server \`${MCP_SERVER_NAME}\`)`;
  return name;
}

/**
 * The concrete send instruction for one exact target (contract §8.2): the tool, the target,
 * and where the content goes. `target` null renders the generic "that target" form used
 * by the final-check's per-wake instruction.
 */
export function sendInstruction(surface: SendSurface, language: PromptLanguage, target: TargetKey | null): string {
  const zh = language === 'zh-CN';
  if (surface.kind === 'cli') {
    const cmd = `\`${cliSendCommand(target ?? '<target>')}\``;
    return zh
      ? `运行 ${cmd}，把正文写入 --content 的单引号内（正文中的 ' 写作 '\\''）`
      : `run ${cmd} with the reply inside the single quotes of --content (write a ' in it as '\\'')`;
  }
  const ref = sendToolRef(surface, language);
  if (target === null)
    return zh
      ? `调用 ${ref}，使用该 target，并把正文写入 content`
      : `call ${ref} with that target and put the user-facing content in content`;
  return zh
    ? `调用 ${ref}，使用精确 target "${target}"，并把正文写入 content`
    : `call ${ref} with the exact target "${target}" and put the reply in content`;
}

/** How to send intentionally elsewhere (contract §8.3: cross-scope sends are explicit, `allow_cross_target`). */
export function crossTargetInstruction(surface: SendSurface, language: PromptLanguage): string {
  const zh = language === 'zh-CN';
  if (surface.kind === 'cli') {
    return zh
      ? '如果明确要主动发往其他 conversation，使用那个 destination 的 exact target 作为 --target，并加上 --allow-cross-target。'
      : "To post intentionally to another conversation, give that destination's exact target as --target and add --allow-cross-target.";
  }
  return zh
    ? '如果明确要主动发往其他 conversation，显式提供那个 destination 的 exact target，并设置 allow_cross_target: true。'
    : "To post intentionally to another conversation, give that destination's exact target and set allow_cross_target: true.";
}
