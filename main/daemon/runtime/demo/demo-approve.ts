/**
 * `@demo /approve` (issue 14 "Demo"): the demo asks to write a small file into its workspace
 * through the same approval path the CLI runtimes use (approval-port.ts → agent session →
 * approvals/approval-service.ts: the durable row, `approval.updated`, the chip, the CLI, expiry,
 * cancel on restart), so a first-time user sees the flow with no LLM. The request looks like a
 * real one: a `Write` of one path, summary "path (+N −M)", detail the diff (as Claude's
 * `can_use_tool` Write is shown, claude-permissions.ts).
 *
 * The workspace is the agent's like every runtime's (workspace.ts: its `cwd`, or its own
 * `<data-dir>/workspaces/<agent id>`, checked or made at start).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { approvalRule } from '../../../../shared/approvals.js';
import { lineDiff, textLines } from '../../../../shared/line-diff.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';

export const DEMO_FILE = 'agentteam-demo.txt';
/** What `/approve` writes: the approval's diff shows exactly these lines. */
export const DEMO_FILE_LINES = [
  'Hello from the AgentTeam demo agent.',
  'You allowed this write: an agent changes your files only with your approval.',
] as const;

/**
 * The approval the demo asks for: `before` is the file's current text (null when it does not
 * exist), `after` the lines it writes. issue 40 item 9: the lines that stay are context, never
 * counted (shared/line-diff.ts) — writing the same text again reads (+0 −0); issue 40 item 10:
 * `/edit` keeps the file's first lines, `/approve` replaces the whole file.
 */
export function demoFileAsk(
  path: string,
  before: string | null,
  after: readonly string[] = DEMO_FILE_LINES,
): ApprovalAsk {
  const diff = lineDiff(textLines(before ?? ''), after);
  return {
    kind: 'file_change',
    tool: 'Write',
    summary: `${path} (+${diff.added} −${diff.removed})`,
    detail: `${path}\n${diff.lines.join('\n')}`,
    rule: approvalRule('Write', path),
  };
}

/**
 * issue 41: the demo writes one regular file inside its workspace and nothing else. A symlink at
 * that name (an agent or anyone may have planted `agentteam-demo.txt -> ~/.bashrc`) is refused by
 * O_NOFOLLOW at open; a hard link to a file elsewhere by its link count, checked before any byte
 * is changed (hence no O_TRUNC at open).
 */
const NO_FOLLOW = constants.O_NOFOLLOW;

/** The file's current text, or null when there is none yet (a symlink is never followed). */
export async function readBefore(path: string): Promise<string | null> {
  const file = await open(path, constants.O_RDONLY | NO_FOLLOW).catch(() => null);
  if (file === null) return null;
  try {
    return await file.readFile('utf8');
  } catch {
    return null;
  } finally {
    await file.close();
  }
}

/** Writes the file (`text`, by default `/approve`'s lines) after an allow; resolves with an error text, or null. */
export async function writeDemoFile(
  workspace: string,
  text = `${DEMO_FILE_LINES.join('\n')}\n`,
): Promise<string | null> {
  const path = join(workspace, DEMO_FILE);
  try {
    const file = await open(path, constants.O_WRONLY | constants.O_CREAT | NO_FOLLOW, 0o644).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP')
        throw new Error(`${path} is a symbolic link; the demo writes only a regular file inside its workspace.`);
      throw err;
    });
    try {
      const stat = await file.stat();
      if (!stat.isFile() || stat.nlink > 1)
        throw new Error(`${path} is linked to a file elsewhere; the demo writes only its own file in its workspace.`);
      await file.truncate(0);
      await file.writeFile(text);
    } finally {
      await file.close();
    }
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The demo's reply once the request is settled (and, after an allow, the write done or failed). */
export function demoApproveReply(
  label: string,
  workspace: string,
  answer: ApprovalAnswer,
  writeError: string | null,
): string {
  if (answer.decision === 'allow')
    return writeError === null
      ? `${label} Wrote ${DEMO_FILE} in ${workspace} after you allowed it.`
      : `${label} You allowed it, but writing ${DEMO_FILE} in ${workspace} failed: ${writeError}`;
  switch (answer.status) {
    case 'expired':
      // The expiry's reason is written for a model ("do not retry"); the person reads the plain fact.
      return `${label} Nothing was written: nobody answered the request to write ${DEMO_FILE} in time, so it was denied.`;
    case 'cancelled':
      return `${label} Nothing was written: the request to write ${DEMO_FILE} was cancelled${reasonText(answer.reason)}`;
    default:
      return `${label} Nothing was written: the request to write ${DEMO_FILE} was denied${reasonText(answer.reason)}`;
  }
}

const reasonText = (reason: string | null) => (reason === null ? '.' : `. Reason: ${reason}`);
