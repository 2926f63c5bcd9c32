/**
 * issue 26: the words of a wake's changes, shared by the daemon (git/diff.ts, the store) and the
 * renderer (the review pane).
 */

/** A changed file's status, as git's `--name-status` letters A M D R C T say it. */
export const CHANGE_STATUSES = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type_changed'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** Why a changed file is listed but its patch not inlined. */
export const PATCH_OMISSIONS = ['binary', 'too_large', 'too_many_files'] as const;
export type PatchOmission = (typeof PATCH_OMISSIONS)[number];

/** `none`: the wake never reached its runtime; see the store's `wake_changes` for the others. */
export const WAKE_CHANGE_STATES = ['none', 'pending', 'tracked', 'untracked', 'failed'] as const;
export type WakeChangeStateName = (typeof WAKE_CHANGE_STATES)[number];
