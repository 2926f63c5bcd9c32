/**
 * An agent's permission policy on Codex's own mechanism (issue 14; research/runtimes.md
 * appendix): the thread's `approvalPolicy` and `sandbox` (thread/start and thread/resume), and
 * the app-server's server→client approval requests — `item/commandExecution/requestApproval`
 * (a command, input to a running terminal, a command for a person, network access),
 * `item/fileChange/requestApproval`, `item/permissions/requestApproval` and the legacy
 * `execCommandApproval` / `applyPatchApproval` — answered with the operator's decision (`accept`
 * / `decline`, `approved` / `denied`; the model then reads "rejected by user").
 *
 * | policy      | approvalPolicy | sandbox              | questions                                    |
 * |-------------|----------------|----------------------|----------------------------------------------|
 * | `read-only` | `never`        | `read-only`          | none: a write is refused by the sandbox       |
 * | `ask`       | `on-request`   | `read-only`          | every write / escalation the model asks for   |
 * | `auto-edit` | `on-request`   | `workspace-write`    | what leaves the workspace sandbox             |
 * | `full`      | `never`        | `danger-full-access` | none                                          |
 *
 * (`untrusted` would ask for every command, but Codex 0.171 reports it "no longer supported".)
 * issue 41: a sandboxed mode reaches Codex as the daemon's permission profile built on it, which
 * also denies the data dir's state to every command (codex-config.ts); only `full` is passed as
 * the thread's `sandbox`.
 * Liveness (issue 14 "from the runtime where it exists"): Codex's own `thread/status/changed`
 * `activeFlags: ["waitingOnApproval"]` says the thread waits on the operator; each change is an
 * `operator_wait` driver event, which pauses the turn's silence clock (restarted from zero when
 * Codex leaves that state) — the same `approval.wait` the daemon's pending approvals drive.
 */
import { unifiedDiffCounts } from '../../../../shared/line-diff.js';
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
      if (this.ctx.log?.debugEnabled === true)
        this.ctx.log.debug('codex: thread status', { status: n.params.status.type, waitingOnApproval: waiting });
      if (waiting === this.#waitingOnApproval) return;
      this.#waitingOnApproval = waiting;
      this.ctx.emit({ type: 'operator_wait', waiting });
    }
  }

  /**
   * The operator's answer to an approval request, or null when `r` is not one this module answers.
   * issue 29: every approval request kind of the app-server protocol (./generated/ServerRequest.ts),
   * each as Codex defines it; a rule ("always") only for what can be stated exactly.
   */
  answer(r: RpcServerRequest): Promise<{ readonly result: unknown }> | null {
    if (isServerRequest(r, 'item/commandExecution/requestApproval')) {
      const ask = commandExecutionAsk(r.params);
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: decisionOf(a) } }));
    }
    if (isServerRequest(r, 'item/fileChange/requestApproval')) {
      const ask = fileChangeAsk(this.#changes.get(r.params.itemId) ?? [], r.params.reason, r.params.grantRoot);
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: decisionOf(a) } }));
    }
    if (isServerRequest(r, 'item/permissions/requestApproval')) {
      // Extra sandbox permissions (network, file-system paths) for this turn: granted as asked, or none.
      const { permissions, reason, cwd } = r.params;
      const wanted = JSON.stringify(permissions);
      const ask: ApprovalAsk = {
        kind: 'other',
        tool: 'Permissions',
        summary: `more sandbox permissions for this turn: ${wanted}`,
        detail: [wanted, `in ${cwd}`, reason ?? ''].filter((l) => l !== '').join('\n'),
        // A permission profile is not a command or a file: nothing exact to allow "always".
        rule: null,
      };
      return this.ctx.askApproval(ask).then((a) => ({
        result: {
          permissions:
            a.decision === 'allow'
              ? {
                  ...(permissions.network === null ? {} : { network: permissions.network }),
                  ...(permissions.fileSystem === null ? {} : { fileSystem: permissions.fileSystem }),
                }
              : {},
          scope: 'turn',
        },
      }));
    }
    // The v1 (legacy) requests an older app-server still sends; `ReviewDecision` answers them.
    if (isServerRequest(r, 'execCommandApproval')) {
      const command = shellWords(r.params.command);
      const ask: ApprovalAsk = {
        kind: 'command',
        tool: 'Bash',
        summary: command,
        detail: [command, `in ${r.params.cwd}`, r.params.reason ?? ''].filter((l) => l !== '').join('\n'),
        rule: command === '' ? null : approvalRule('Bash', command),
      };
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: reviewDecisionOf(a) } }));
    }
    if (isServerRequest(r, 'applyPatchApproval')) {
      const changes = Object.entries(r.params.fileChanges).flatMap(([path, c]) =>
        c === undefined ? [] : [{ path, diff: c.type === 'update' ? c.unified_diff : c.content }],
      );
      const ask = fileChangeAsk(changes, r.params.reason, r.params.grantRoot);
      return this.ctx.askApproval(ask).then((a) => ({ result: { decision: reviewDecisionOf(a) } }));
    }
    return null;
  }
}

type CommandExecutionParams = Extract<
  RpcServerRequest,
  { readonly method: 'item/commandExecution/requestApproval' }
>['params'];

/**
 * `item/commandExecution/requestApproval` by its `kind` (generated/v2/CommandExecutionApprovalKind.ts):
 * - `command`: a command the model runs — "always" records exactly `Bash(command)`;
 * - `writeStdin`: input sent to a terminal that is already running — what it does depends on that
 *   process, so only "once";
 * - `humanCommand`: a command Codex presents to a person for a one-time decision
 *   (generated/InitializeCapabilities.ts `requiredHumanApproval`) — only "once".
 * A managed-network prompt (`networkApprovalContext`) asks for access to one host: "always"
 * records exactly `Network(protocol://host)`.
 */
function commandExecutionAsk(p: CommandExecutionParams): ApprovalAsk {
  const command = p.command ?? '';
  const context = [p.cwd ? `in ${p.cwd}` : '', p.reason ?? ''].filter((l) => l !== '');
  if (p.networkApprovalContext !== undefined && p.networkApprovalContext !== null) {
    const { host, protocol } = p.networkApprovalContext;
    const target = `${protocol}://${host}`;
    return {
      kind: 'other',
      tool: 'Network',
      summary: `network access to ${target}${command === '' ? '' : ` for: ${command}`}`,
      detail: [target, ...(command === '' ? [] : [command]), ...context].join('\n'),
      rule: approvalRule('Network', target),
    };
  }
  switch (p.kind) {
    case 'writeStdin':
      return {
        kind: 'other',
        tool: 'Stdin',
        summary: `input to a running command: ${command === '' ? '(no text shown)' : command}`,
        detail: [command, ...context].join('\n'),
        rule: null,
      };
    case 'humanCommand':
      return { kind: 'command', tool: 'Bash', summary: command, detail: [command, ...context].join('\n'), rule: null };
    default:
      return {
        kind: 'command',
        tool: 'Bash',
        summary: command === '' ? '(a command Codex did not show)' : command,
        detail: [command, ...context].filter((l) => l !== '').join('\n'),
        // An unnamed command cannot be allowed "always".
        rule: command === '' ? null : approvalRule('Bash', command),
      };
  }
}

/**
 * A file change: the files and diffs Codex announced for it. "always" records exactly
 * `Edit(<paths>)` only when Codex named the files; a change it did not name, or a `grantRoot`
 * (writes under a folder for the session), is only "once" (issue 29: no `Edit(files)`).
 */
function fileChangeAsk(
  changes: ReadonlyArray<{ path: string; diff: string }>,
  reason: string | null | undefined,
  grantRoot: string | null | undefined,
): ApprovalAsk {
  const paths = changes.map((c) => c.path);
  const counts = changes.map((c) => unifiedDiffCounts(c.diff));
  const added = counts.reduce((n, c) => n + c.added, 0);
  const removed = counts.reduce((n, c) => n + c.removed, 0);
  const root = grantRoot ?? null;
  const where =
    root !== null ? `writes under ${root}` : paths.length === 0 ? 'files Codex did not name' : paths.join(', ');
  const detail =
    [changes.map((c) => `${c.path}\n${c.diff}`).join('\n'), root === null ? '' : `writes under ${root}`, reason ?? '']
      .filter((l) => l !== '')
      .join('\n') || where;
  return {
    kind: 'file_change',
    tool: 'Edit',
    summary: paths.length === 0 ? where : `${where} (+${added} −${removed})`,
    detail,
    rule: root === null && paths.length > 0 ? approvalRule('Edit', paths.join(', ')) : null,
  };
}

/** argv as one exact shell line: a word with anything but safe characters is single-quoted. */
function shellWords(argv: readonly string[]): string {
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
}

function reviewDecisionOf(a: ApprovalAnswer): 'approved' | { denied: { rejection: string } } {
  return a.decision === 'allow'
    ? 'approved'
    : { denied: { rejection: a.reason ?? 'The operator denied this request in AgentTeam.' } };
}

function decisionOf(a: ApprovalAnswer): 'accept' | 'decline' {
  return a.decision === 'allow' ? 'accept' : 'decline';
}
