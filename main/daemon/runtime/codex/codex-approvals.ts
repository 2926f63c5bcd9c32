/**
 * An agent's permission policy on Codex's own mechanism (issue 14; research/runtimes.md
 * appendix): the thread's `approvalPolicy` and `sandbox` (thread/start and thread/resume), and
 * the app-server's server→client requests `item/commandExecution/requestApproval` and
 * `item/fileChange/requestApproval`, answered with the operator's decision (`accept` /
 * `decline`; the model then reads "rejected by user").
 *
 * | policy      | approvalPolicy | sandbox              | questions                                    |
 * |-------------|----------------|----------------------|----------------------------------------------|
 * | `read-only` | `never`        | `read-only`          | none: a write is refused by the sandbox       |
 * | `ask`       | `on-request`   | `read-only`          | every write / escalation the model asks for   |
 * | `auto-edit` | `on-request`   | `workspace-write`    | what leaves the workspace sandbox             |
 * | `full`      | `never`        | `danger-full-access` | none                                          |
 *
 * (`untrusted` would ask for every command, but Codex 0.171 reports it "no longer supported".)
 * Liveness (issue 14 "from the runtime where it exists"): Codex's own `thread/status/changed`
 * `activeFlags: ["waitingOnApproval"]` says the thread waits on the operator; each change is an
 * `operator_wait` driver event, which pauses the turn's silence clock (restarted from zero when
 * Codex leaves that state) — the same `approval.wait` the daemon's pending approvals drive.
 */
import type { PermissionPolicy } from '../../../../shared/config.js';
import { approvalRule } from '../../../../shared/approvals.js';
import type { ApprovalAnswer, ApprovalAsk } from '../approval-port.js';
import type { DriverContext } from '../driver-session.js';
import {
  isItem,
  isNotification,
  isServerRequest,
  type AskForApproval,
  type SandboxMode,
  type ServerNotification,
} from './codex-protocol.js';
import type { RpcServerRequest } from './codex-rpc-client.js';

export function codexThreadPolicy(policy: PermissionPolicy): {
  readonly approvalPolicy: AskForApproval;
  readonly sandbox: SandboxMode;
} {
  switch (policy) {
    case 'read-only':
      return { approvalPolicy: 'never', sandbox: 'read-only' };
    case 'ask':
      return { approvalPolicy: 'on-request', sandbox: 'read-only' };
    case 'auto-edit':
      return { approvalPolicy: 'on-request', sandbox: 'workspace-write' };
    case 'full':
      return { approvalPolicy: 'never', sandbox: 'danger-full-access' };
  }
}

const lineCount = (diff: string, sign: '+' | '-') =>
  diff.split('\n').filter((l) => l.startsWith(sign) && !l.startsWith(`${sign}${sign}${sign}`)).length;

/** Per session: the file changes Codex announced (a fileChange approval names only the item). */
export class CodexApprovals {
  readonly #changes = new Map<string, ReadonlyArray<{ path: string; diff: string }>>();
  /** What Codex last said: whether its thread waits on approval (only changes are emitted). */
  #waitingOnApproval = false;

  constructor(private readonly ctx: DriverContext) {}

  /** Feed every notification: remembers fileChange items; turns Codex's waitingOnApproval flag into `operator_wait`. */
  observe(n: ServerNotification): void {
    if (isNotification(n, 'item/started') && isItem(n.params.item, 'fileChange'))
      this.#changes.set(n.params.item.id, n.params.item.changes);
    else if (isNotification(n, 'item/completed')) this.#changes.delete(n.params.item.id);
    else if (isNotification(n, 'thread/status/changed')) {
      const waiting = n.params.status.type === 'active' && n.params.status.activeFlags.includes('waitingOnApproval');
      this.ctx.log?.debug('codex: thread status', { status: n.params.status.type, waitingOnApproval: waiting });
      if (waiting === this.#waitingOnApproval) return;
      this.#waitingOnApproval = waiting;
      this.ctx.emit({ type: 'operator_wait', waiting });
    }
  }

  /** The operator's answer to an approval request, or null when `r` is not one this module answers. */
  answer(r: RpcServerRequest): Promise<{ readonly result: unknown }> | null {
    if (isServerRequest(r, 'item/commandExecution/requestApproval')) {
      const command = r.params.command ?? '(a command)';
      const detail = [command, r.params.cwd ? `in ${r.params.cwd}` : '', r.params.reason ?? '']
        .filter((l) => l !== '')
        .join('\n');
      const ask: ApprovalAsk = {
        kind: 'command',
        tool: 'Bash',
        summary: command,
        detail,
        rule: approvalRule('Bash', command),
      };
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: decisionOf(a) } }));
    }
    if (isServerRequest(r, 'item/fileChange/requestApproval')) {
      const changes = this.#changes.get(r.params.itemId) ?? [];
      const paths = changes.map((c) => c.path);
      const added = changes.reduce((n, c) => n + lineCount(c.diff, '+'), 0);
      const removed = changes.reduce((n, c) => n + lineCount(c.diff, '-'), 0);
      const where = paths.length === 0 ? (r.params.grantRoot ?? 'files') : paths.join(', ');
      const ask: ApprovalAsk = {
        kind: 'file_change',
        tool: 'Edit',
        summary: `${where} (+${added} −${removed})`,
        detail: changes.map((c) => `${c.path}\n${c.diff}`).join('\n') || (r.params.reason ?? where),
        rule: approvalRule('Edit', where),
      };
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: decisionOf(a) } }));
    }
    return null;
  }
}

function decisionOf(a: ApprovalAnswer): 'accept' | 'decline' {
  return a.decision === 'allow' ? 'accept' : 'decline';
}
