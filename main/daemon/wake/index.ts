/** Public face of the wake lifecycle core (contract §5, §6, §9, §10). */
export { WakeLifecycle } from './wake-lifecycle.js';
export type { WakeDelivery } from './wake-lifecycle.js';
export { PendingDeliveryTable } from './pending-delivery-table.js';
export type { DeliveryClass, FinalCheckGroup, WakeAdmission } from './pending-delivery.js';
export type {
  FinalCheckRenderer,
  JournalQueuedWake,
  WakeJournal,
  WakeJournalEvent,
  WakeJournalInsert,
} from './wake-ports.js';
export type { WakeStatusEvent } from './wake-status-event.js';
