/** Public face of the wake lifecycle core (contract §5, §6, §9, §10). */
export { WakeLifecycle, DEFAULT_PENDING_CAPACITY, WAKE_DETAIL_MAX_LENGTH } from './wake-lifecycle.js';
export type {
  AgentProfile,
  FinalCheckInjection,
  InboundWake,
  SendResult,
  SendScopeCheck,
  WakeDelivery,
  WakeLifecycleOptions,
} from './wake-lifecycle.js';
export { PendingDeliveryTable } from './pending-delivery-table.js';
export type { BoundaryResult, ReplacementResult } from './pending-delivery-table.js';
export { DELIVERY_CLASSES, PendingDelivery } from './pending-delivery.js';
export type {
  DeliveryClass,
  FinalCheckGroup,
  NoReplyReason,
  PendingDeliveryStatus,
  RecoveryFrontier,
  TableEffect,
  TerminalOutcome,
  TurnBoundaryKind,
  WakeAdmission,
} from './pending-delivery.js';
export type {
  FinalCheckRenderContext,
  FinalCheckRenderer,
  JournalQueuedWake,
  WakeCorrelationPort,
  WakeJournal,
  WakeJournalEvent,
  WakeJournalInsert,
} from './wake-ports.js';
export type { WakeStatusEvent } from './wake-status-event.js';
