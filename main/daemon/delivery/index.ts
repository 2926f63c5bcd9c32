/** Public face of response delivery confirmation (watchdog spec part B). */
export {
  DeliveryTracker,
  ALERT_COPY,
  type ChunkOutcome,
  type DeliveryAlert,
  type DeliveryAlertKind,
  type DeliveryPurpose,
  type DeliveryStats,
  type DeliveryTrackerOptions,
  type NoResponseEvent,
  type SendOutcome,
  type SendRequest,
} from './delivery-tracker.js';
export {
  classifyFailure,
  failureCode,
  retryDelayFor,
  type Channel,
  type ChannelAck,
  type ChannelFailure,
  type ChannelNack,
  type ChannelSendRequest,
  type ChannelSendResult,
  type FailureClass,
} from './channel.js';
export { LocalChannel } from './local-channel.js';
export type {
  AppendAgentMessage,
  AppendedMessage,
  MessageAppendPort,
  UndeliveredPort,
  UndeliveredRow,
} from './delivery-ports.js';
export {
  reduceChunk,
  INITIAL_CHUNK_STATE,
  type ChunkEvent,
  type ChunkEffect,
  type ChunkFinal,
  type ChunkPhase,
  type ChunkPolicy,
  type ChunkState,
} from './delivery-state.js';
