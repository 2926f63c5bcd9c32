/** The durable local store: its public face. */
export {
  Store,
  DB_FILE,
  WAKE_DETAIL_MAX,
  RECOVERY_WAKE_TOKENS_MAX,
  recoveryMarkerId,
  responseMessageId,
  type StoreOptions,
} from './store.js';
export { StoreError, StoreLockedError, type StoreErrorCode } from './store-errors.js';
export { LOCK_FILE, LOCK_OWNER_FILE } from './writer-lock.js';
export { SCHEMA_VERSION } from './migrations.js';
export type * from './store-records.js';
