/** The prompt compiler's public face (contract §7, §8): pure renderers, fingerprints, trajectory. */
export { compileDelivery, compileRecovery, compileTurnContext, TURN_KINDS } from './prompt-compiler.js';
export type {
  CompileOptions,
  CompiledDelivery,
  CompiledTurnContext,
  DeliveryMessage,
  PromptAgent,
  RecoveryMarker,
  TurnKind,
} from './prompt-compiler.js';
export { canResumeSession, compileThreadContract, type ThreadContract } from './thread-contract.js';
export { CONTRACT_POINTS, contractPoints, renderContractBlock, type ContractPoint } from './contract-block.js';
export { renderTailReminder } from './delivery-tail.js';
export { FINAL_CHECK_MARKER, finalCheckRenderer, finalCheckTargets, renderFinalCheck } from './final-check.js';
export { parseEnvelopes, renderEnvelope, type EnvelopeFields } from './envelope.js';
export type { FinalCheckContext, FinalCheckGroup, FinalCheckRenderer, FinalCheckWake } from './final-check.js';
export {
  canonicalJson,
  fingerprint,
  runtimePolicyFingerprint,
  runtimeStartFingerprint,
  threadContractFingerprint,
  turnContextFingerprint,
} from './fingerprints.js';
export type { FingerprintAgent, Json } from './fingerprints.js';
export {
  DESKTOP_CAPABILITIES,
  LEGACY_VISIBLE_REPLY_CAPABILITY,
  legacyBehaviorSettings,
  projectVisibleReplyContract,
  type VisibleReplyContractProjection,
} from './legacy-projection.js';
export {
  PromptTrajectory,
  recordingFinalCheckRenderer,
  type PromptInputDraft,
  type PromptInputKind,
  type PromptInputStore,
} from './prompt-trajectory.js';
export {
  AGENTTEAM_MCP_SERVER,
  CLI_SEND_COMMAND,
  MCP_TOOLS,
  mcpNamespace,
  mcpToolName,
  sendSurfaceFor,
  sendToolRef,
} from './tool-names.js';
export type { McpTool, SendSurface, SendSurfaceKind } from './tool-names.js';
