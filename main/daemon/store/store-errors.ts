/**
 * Errors `Store.open` / `Store.openReadOnly` can raise (and `Store.whenDurable`: `store_sync_failed`). They carry a stable `code` and a message a person
 * can act on (STYLE.md habit 9); the composition root reports them and refuses to start.
 * Everything else the store throws is a bug.
 */
export type StoreErrorCode =
  | 'store_locked'
  | 'store_too_new'
  | 'store_outdated'
  | 'store_missing'
  | 'store_unopenable'
  /** issue 30: a group commit's WAL sync failed; its callers are told, the rows stay stored. */
  | 'store_sync_failed';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** Another live process holds the data dir's writer lock. */
export class StoreLockedError extends StoreError {
  constructor(
    readonly dataDir: string,
    /** The holder's pid, when it has recorded one. */
    readonly holderPid: number | null,
  ) {
    super(
      'store_locked',
      holderPid === null
        ? `The data dir ${dataDir} is in use by another AgentTeam process that is still starting; stop it or use another --data-dir.`
        : `The data dir ${dataDir} is in use by another AgentTeam process (pid ${holderPid}); stop it or use another --data-dir.`,
    );
    this.name = 'StoreLockedError';
  }
}
