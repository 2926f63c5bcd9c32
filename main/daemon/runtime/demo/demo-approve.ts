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
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { approvalRule } from '../../../../shared/approvals.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';

export const DEMO_FILE = 'agentteam-demo.txt';
/** What `/approve` writes: the approval's diff shows exactly these lines. */
export const DEMO_FILE_LINES = [
  'Hello from the AgentTeam demo agent.',
  'You allowed this write: an agent changes your files only with your approval.',
] as const;

const minusLines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** The approval the demo asks for: `before` is the file's current text (null when it does not exist). */
export function demoFileAsk(path: string, before: string | null): ApprovalAsk {
  const removed = minusLines(before ?? '');
  const diff = [...removed.map((l) => `-${l}`), ...DEMO_FILE_LINES.map((l) => `+${l}`)];
  return {
    kind: 'file_change',
    tool: 'Write',
    summary: `${path} (+${DEMO_FILE_LINES.length} −${removed.length})`,
    detail: `${path}\n${diff.join('\n')}`,
    rule: approvalRule('Write', path),
  };
}

/** The file's current text, or null when there is none yet. */
export function readBefore(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch(() => null);
}

/** Writes the file after an allow; resolves with an error text, or null. */
export async function writeDemoFile(workspace: string): Promise<string | null> {
  try {
    await writeFile(join(workspace, DEMO_FILE), `${DEMO_FILE_LINES.join('\n')}\n`, { flag: 'w' });
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
