/**
 * `@demo /edit` and `@demo /edit conflict` (issue 40 item 10): the demo's change to review, merge
 * or discard, fresh each time, so the review flow can be tried again and again (`/approve` writes
 * the same two lines every time: one try each).
 *
 * - `/edit` appends one numbered line to `agentteam-demo.txt` in its workspace. The number is one
 *   more than both the highest number already in the file and the last this runtime wrote, so two
 *   edits are never the same change, even after a discard (no time stamp: a test can assert it).
 * - `/edit conflict` makes a change that a merge into the base refuses as a conflict, touching only
 *   the demo's own worktree and branch, never the person's checkout or base branch. A conflict
 *   needs the base to have changed the same lines since the branch forked, and only the person or a
 *   merge moves the base; so the demo plays the agent that worked from an older copy: it moves its
 *   own branch back to just before the base's last change of the file (commit C) and writes a
 *   different line where C wrote its own. Merge then meets C's line and the demo's at the same
 *   place: `conflict`, the base left as it was; discard puts the branch back on the base. It is
 *   refused, saying why, when the demo is not in a worktree, when its worktree has work of its own
 *   that the move would lose, or when the base has never had the file (merge an `/edit` first).
 *
 * Both ask the operator first through the approval path, as `/approve` does (demo-approve.ts).
 */
import { runGit } from '../../git/git-cli.js';
import { DEMO_FILE } from './demo-approve.js';

/** The line `/edit` number `n` appends. */
const editLine = (n: number) => `Edit ${n} by the AgentTeam demo agent.`;
/** The line `/edit conflict` writes where the base's last change wrote its own. */
const conflictLine = (n: number) => `Edit ${n} by the AgentTeam demo agent, written from an older copy.`;

const EDIT_NUMBER = /^Edit (\d+) by the AgentTeam demo agent/;

export const linesOf = (text: string | null) =>
  text === null || text === '' ? [] : text.replace(/\n$/, '').split('\n');

/** The highest edit number in `text` (0 when none). */
function highestEdit(text: string | null): number {
  return Math.max(0, ...linesOf(text).map((l) => Number(EDIT_NUMBER.exec(l)?.[1] ?? 0)));
}

/** The next edit's number: above both the file's highest and the last one this runtime wrote. */
export function nextEditNumber(before: string | null, lastWritten: number): number {
  return Math.max(highestEdit(before), lastWritten) + 1;
}

/** The file's text after `/edit` number `n`. */
export function editedText(before: string | null, n: number): string {
  return `${[...linesOf(before), editLine(n)].join('\n')}\n`;
}

/** What `/edit conflict` will do: move its branch to `from` and write `text`; or why it cannot. */
type ConflictPlan =
  | {
      readonly kind: 'plan';
      /** The base branch, and its last commit that changed the file (short). */
      readonly base: string;
      readonly commit: string;
      /** Where the branch moves: C's parent. */
      readonly from: string;
      readonly text: string;
      readonly n: number;
    }
  | { readonly kind: 'refused'; readonly message: string };

async function git(args: readonly string[], cwd: string): Promise<string | null> {
  const r = await runGit(args, { cwd });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** `/edit conflict`'s plan in the worktree `workspace` (nothing is changed here). */
export async function planConflict(workspace: string, lastWritten: number): Promise<ConflictPlan> {
  const refused = (message: string): ConflictPlan => ({ kind: 'refused', message });
  const branch = await git(['symbolic-ref', '--short', '-q', 'HEAD'], workspace);
  // The base the daemon recorded when it made the worktree (git/worktree.ts recordBase).
  const base = branch === null ? null : await git(['config', `branch.${branch}.agentteamBase`], workspace);
  if (branch === null || base === null || base === '')
    return refused(
      `I am not in a worktree of my own (set "isolation": "worktree" for me in agentteam.json), so there is no base to conflict with; /edit works anywhere.`,
    );
  const dirty = await git(['status', '--porcelain=v1', '-uall'], workspace);
  const ahead = await git(['rev-list', '--count', `${base}..HEAD`], workspace);
  if (dirty === null || ahead === null) return refused(`git could not read my worktree ${workspace}.`);
  if (dirty !== '' || ahead !== '0')
    return refused(
      `my worktree has changes not on ${base} yet, and making a conflict would lose them: merge or discard them first, then send /edit conflict again.`,
    );
  const last = await git(['log', '-1', '--format=%h', base, '--', DEMO_FILE], workspace);
  if (last === null || last === '')
    return refused(
      `${base} has no ${DEMO_FILE} yet, so there is nothing to conflict with: send /edit, merge it, then send /edit conflict.`,
    );
  const from = await git(['rev-parse', '--verify', '-q', `${last}^`], workspace);
  if (from === null)
    return refused(`${DEMO_FILE} came with the first commit of ${base}; there is no older copy to work from.`);
  const older = await git(['show', `${from}:${DEMO_FILE}`], workspace);
  const now = await git(['show', `${base}:${DEMO_FILE}`], workspace);
  const n = nextEditNumber(now, Math.max(lastWritten, highestEdit(older)));
  // Where C appended (the usual: an `/edit` merged), the demo appends another line at the same
  // place; where C created the file, the demo creates it with other text: git refuses both.
  const text = `${[...linesOf(older), conflictLine(n)].join('\n')}\n`;
  return { kind: 'plan', base, commit: last, from, text, n };
}

/** Moves the demo's own (clean) branch and worktree to `from`; an error text, or null. */
export async function moveBranchTo(workspace: string, from: string): Promise<string | null> {
  const r = await runGit(['reset', '--hard', '-q', from], { cwd: workspace });
  return r.code === 0 ? null : `git reset --hard ${from} failed in ${workspace}: ${r.stderr.trim()}`;
}
