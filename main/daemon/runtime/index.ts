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
export { RuntimeSkeleton } from './runtime-skeleton.js';
export type { RuntimeSkeletonOptions } from './runtime-skeleton.js';
export type { AgentLaunchOptions, ConnectResult, LaunchSpec, RuntimeDriver } from './runtime-driver.js';
export type { DriverContext, DriverEvent, DriverSession, WireResult } from './driver-session.js';
export { ClaudeCodeAdapter } from './claude-code/claude-code-adapter.js';
export type { ClaudeCodeAdapterOptions } from './claude-code/claude-code-adapter.js';
export { ClaudeDriver } from './claude-code/claude-driver.js';
export { CLAUDE_SEND_TOOL, CLAUDE_REACTION_TOOL } from './claude-code/claude-launch.js';
export { DemoRuntime, DEMO_LABEL, DEFAULT_DEMO_TASK_MS } from './demo/demo-runtime.js';
export type { DemoRuntimeOptions } from './demo/demo-runtime.js';
export { exactTargets } from './prompt-targets.js';
export { CodexDriver } from './codex/codex-driver.js';
export type { CodexDriverOptions } from './codex/codex-driver.js';
export { agentProviderFromEnv } from './agent-provider.js';
export { renderCodexConfig, writeCodexHome } from './codex/codex-config.js';
export { OpencodeDriver } from './opencode/opencode-driver.js';
export type { OpencodeDriverOptions } from './opencode/opencode-driver.js';
export { renderOpencodeConfig, writeOpencodeHome } from './opencode/opencode-config.js';
