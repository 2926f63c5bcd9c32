/** The durable local store: its public face (the Store facade over tables/). */
export { Store, DB_FILE } from './store.js';
export { StoreError, StoreLockedError } from './store-errors.js';
export { LOCK_OWNER_FILE } from './writer-lock.js';
export { SCHEMA_VERSION } from './migrations.js';
export type { ThreadRecord } from './tables/threads-query.js';
export type {
  AuditRecord,
  ChainRecord,
  HeldWake,
  ConversationRecord,
  MessageRecord,
  PromptInputRecord,
  ReactionRecord,
  WakeEventKind,
  WakeEventRecord,
  WakeRecord,
} from './store-records.js';
export type { ApprovalInput, ApprovalRecord, ApprovalSettle } from './tables/approvals-table.js';
export type { GrantRecord } from './tables/grants-table.js';
