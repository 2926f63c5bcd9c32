/** Public face of the runtime adapters. */
export { createRuntimeAdapter, resolveRuntimeCommand, runtimeDirOf } from './runtime-factory.js';
export type { RuntimeAdapterResult, RuntimeDeps } from './runtime-factory.js';
export { textMetrics, boundedDetail, RUNTIME_ERROR_DETAIL_MAX } from './runtime-adapter.js';
export type {
  DeliverResult,
  RuntimeAdapter,
  RuntimeEvent,
  RuntimeEventEnvelope,
  StartResult,
  TurnBoundaryHost,
} from './runtime-adapter.js';
export { fileSessionStore, memorySessionStore } from './runtime-session-store.js';
export type { RuntimeSessionStore, StoredRuntimeSession } from './runtime-session-store.js';
export { DEFAULT_RESTART_POLICY, RestartSupervisor } from './supervisor.js';
export type { RestartPolicy, RestartDecision } from './supervisor.js';
export { ClaudeCodeAdapter } from './claude-code/claude-code-adapter.js';
export type { ClaudeCodeAdapterOptions } from './claude-code/claude-code-adapter.js';
export { CLAUDE_SEND_TOOL, CLAUDE_REACTION_TOOL } from './claude-code/claude-launch.js';
export { DemoRuntime, DEMO_LABEL, DEFAULT_DEMO_TASK_MS } from './demo/demo-runtime.js';
export type { DemoRuntimeOptions } from './demo/demo-runtime.js';
export { exactTargets } from './prompt-targets.js';
export { TurnRuntimeAdapter } from './turn-runtime-adapter.js';
export type { TurnRuntimeAdapterOptions } from './turn-runtime-adapter.js';
export type {
  AgentRuntime,
  RuntimeErrorCode,
  RuntimeFailure,
  RuntimePrompt,
  RuntimeResult,
  SubmitReceipt,
  TurnOutcome,
} from './agent-runtime.js';
export { CodexRuntime } from './codex/codex-runtime.js';
export type { CodexRuntimeOptions } from './codex/codex-runtime.js';
export { codexProviderFromAgentEnv, renderCodexConfig, writeCodexHome } from './codex/codex-config.js';
export { OpencodeRuntime } from './opencode/opencode-runtime.js';
export type { OpencodeRuntimeOptions } from './opencode/opencode-runtime.js';
export { opencodeProviderFromAgentEnv, renderOpencodeConfig, writeOpencodeHome } from './opencode/opencode-config.js';
