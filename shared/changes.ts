/**
 * issue 26: the words of a wake's changes, shared by the daemon (git/diff.ts, the store) and the
 * renderer (the review pane).
 */

/** A changed file's status, as git's `--name-status` letters A M D R C T say it. */
export const CHANGE_STATUSES = ['added', 'modified', 'deleted', 'renamed', 'copied', 'type_changed'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/**
 * The status of an uncommitted path as `git status --porcelain` prints it (`XY`: index, work
 * tree; `??` untracked), in the same words: what a discard would lose, named as the review pane names changes.
 */
export function uncommittedStatus(xy: string): ChangeStatus {
  if (xy === '??' || xy.includes('A')) return 'added';
  if (xy.includes('D')) return 'deleted';
  if (xy.includes('R')) return 'renamed';
  if (xy.includes('C')) return 'copied';
  if (xy.includes('T')) return 'type_changed';
  return 'modified';
}

/** Why a changed file is listed but its patch not inlined. */
export const PATCH_OMISSIONS = ['binary', 'too_large', 'too_many_files'] as const;
export type PatchOmission = (typeof PATCH_OMISSIONS)[number];

/** `none`: the wake never reached its runtime; see the store's `wake_changes` for the others. */
export const WAKE_CHANGE_STATES = ['none', 'pending', 'tracked', 'untracked', 'failed'] as const;
export type WakeChangeStateName = (typeof WAKE_CHANGE_STATES)[number];

/** issue 26: a review comment on one line of a wake's changes (the review pane, `wakes.comment`). */
export interface ReviewComment {
  readonly path: string;
  /** The line number on its side of the diff. */
  readonly line: number;
  /** `new`: a line of the changed file (added or kept); `old`: a removed line, numbered in the file before. */
  readonly side: 'old' | 'new';
  /** The hunk's header as git prints it (`@@ -1,3 +1,4 @@ …`). */
  readonly hunkHeader: string;
  /** The commented line's text, quoted when given. */
  readonly lineText?: string;
  readonly text: string;
}

/**
 * The message a review comment sends to its agent: addressed to it (so it wakes like any
 * operator message), quoting `path:line` and the hunk header, then the operator's words.
 */
export function reviewCommentText(agentName: string, c: ReviewComment): string {
  const where = `${c.path}:${c.line}${c.side === 'old' ? ' (removed line)' : ''}`;
  const quoted = c.lineText === undefined ? [] : [`> ${c.lineText}`];
  return [`@${agentName} Review comment on ${where}, in hunk ${c.hunkHeader}`, ...quoted, '', c.text].join('\n');
}
