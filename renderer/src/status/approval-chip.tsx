/**
 * issue 14: the approval chip in the status area (UI.md "waiting for an approval"):
 * "✋ Waiting for your approval: {summary} · Allow once · For this session · Always · Deny", keyboard
 * reachable (real buttons), with the exact rule "for this session" and "always" would add.
 * Like every chip it opens the inspector of its wake, which shows the full command or diff
 * (status/wake-approvals.tsx); a request asked between turns (no wake) expands it in place —
 * always text in a <pre>, escaped by React, never rendered as HTML. A wake with a pending
 * approval shows this chip instead of a "Working" chip: the turn waits for the operator, not for
 * the agent.
 */
import { useEffect, useId, useState } from 'react';
import type { Approval, ClientApi } from '../../../shared/api/contract.js';
import type { ApprovalDecision, ApprovalScope } from '../../../shared/approvals.js';
import { displayText } from '../../../shared/display-text.js';
import { copy, type Language } from '../i18n/copy.js';
import { useTargetsOf, type WakeBook } from './wake-store.js';

/**
 * The pending approvals, kept current from `approval.updated` events — and listed again whenever
 * `reopened` fires (issue 40 item 1: after a daemon restart the page reconnects, and the restart
 * cancelled the requests it showed; their Allow would only be refused).
 */
export function usePendingApprovals(
  api: ClientApi,
  reopened?: (listener: () => void) => () => void,
): readonly Approval[] {
  const [pending, setPending] = useState<readonly Approval[]>([]);
  useEffect(() => {
    let live = true;
    const upsert = (a: Approval) =>
      setPending((list) => {
        const rest = list.filter((x) => x.id !== a.id);
        return a.status === 'pending' ? [...rest, a] : rest;
      });
    const unsubscribe = api.events.subscribe((e) => {
      if (e.name === 'approval.updated') upsert(e.payload);
    });
    const list = () =>
      void api.approvals.list({ status: 'pending' }).then((r) => {
        if (live && r.ok) setPending(r.value.filter((a) => a.status === 'pending'));
      });
    list();
    const offReopened = reopened?.(list);
    return () => {
      live = false;
      unsubscribe();
      offReopened?.();
    };
  }, [api, reopened]);
  return pending;
}

/** Leads the chip like every chip's icon (wake-chips.ts CHIP_ICONS; UI.md "waiting for an approval"). */
export const APPROVAL_ICON = '✋';

export interface ApprovalChipsProps {
  readonly api: ClientApi;
  readonly approvals: readonly Approval[];
  /** The wakes, for the conversation of each approval's wakes. */
  readonly wakes: WakeBook;
  readonly target: string;
  readonly language: Language;
  /** Opens the inspector of the request's wake (UI.md: a chip opens the inspector). */
  onOpenWake?(wakeToken: string, opener: HTMLElement): void;
}

/**
 * The answers to one pending request: the chip's and the inspector's (real buttons, keyboard
 * reachable). issue 40 item 4: Allow once, Allow for this session, Always allow, Deny — the CLI's
 * three scopes (`agentteam approve --scope`). "This session" and "Always" only when the request
 * carries an exact rule (issue 29: no rule, only once), and both show that rule, exactly as the
 * daemon would record it (shared/approvals.ts `approvalRule`): visibly under the buttons and in
 * their accessible names. A refused answer (e.g. a stale operator key after a restart) shows its
 * refusal here, where it was clicked (issue 40 "every refused operator action shows its refusal").
 */
export function ApprovalAnswerButtons({
  api,
  approval,
  language,
}: {
  readonly api: ClientApi;
  readonly approval: Approval;
  readonly language: Language;
}) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const ruleId = useId();
  const answer = (decision: ApprovalDecision, scope?: ApprovalScope) => {
    setBusy(true);
    setRefusal(null);
    void api.approvals
      .answer({ id: approval.id, decision, ...(scope === undefined ? {} : { scope }) })
      .then((r) => {
        if (!r.ok) setRefusal(r.message);
      })
      .finally(() => setBusy(false));
  };
  const rule = approval.rule === null ? null : displayText(approval.rule, 'one-line');
  return (
    <>
      <button type="button" className="chip-action chip-allow" disabled={busy} onClick={() => answer('allow', 'once')}>
        {copy(language, 'approval.allowOnce')}
      </button>
      {rule !== null && (
        <>
          <button
            type="button"
            className="chip-action chip-allow-session"
            disabled={busy}
            aria-label={copy(language, 'approval.allowSessionName', { rule })}
            aria-describedby={ruleId}
            onClick={() => answer('allow', 'session')}
          >
            {copy(language, 'approval.allowSession')}
          </button>
          <button
            type="button"
            className="chip-action chip-allow-always"
            disabled={busy}
            aria-label={copy(language, 'approval.allowAlwaysName', { rule })}
            aria-describedby={ruleId}
            onClick={() => answer('allow', 'always')}
          >
            {copy(language, 'approval.allowAlways')}
          </button>
        </>
      )}
      <button type="button" className="chip-action chip-deny" disabled={busy} onClick={() => answer('deny')}>
        {copy(language, 'approval.deny')}
      </button>
      {rule !== null && (
        <p className="approval-rule" id={ruleId}>
          {copy(language, 'approval.rule')} <code>{rule}</code>
        </p>
      )}
      {refusal !== null && (
        <p className="approval-refusal" role="alert">
          {copy(language, 'approval.refused', { message: refusal })}
        </p>
      )}
    </>
  );
}

/** The wakes (tokens) that wait for the operator: their "Working" chip gives way to the approval chip. */
export function waitingWakes(approvals: readonly Approval[]): ReadonlySet<string> {
  return new Set(approvals.flatMap((a) => a.wakeTokens));
}

export function ApprovalChips({ api, approvals, wakes, target, language, onOpenWake }: ApprovalChipsProps) {
  const [open, setOpen] = useState<string | null>(null);
  // Re-render when the conversation of one of these wakes becomes known (its wake.status may come later).
  useTargetsOf(
    wakes,
    approvals.flatMap((a) => a.wakeTokens),
  );
  // An approval shows on the conversation of its wakes; one without wakes (asked between turns) shows everywhere.
  const shown = approvals.filter(
    (a) => a.wakeTokens.length === 0 || a.wakeTokens.some((w) => (wakes.targetOf(w) ?? target) === target),
  );
  return (
    <>
      {shown.map((a) => {
        const wake = a.wakeTokens[0];
        const inspects = wake !== undefined && onOpenWake !== undefined;
        return (
          <span
            key={a.id}
            className="chip chip-approval"
            data-approval={a.id}
            data-status="waiting_approval"
            data-wake={a.wakeTokens[0]}
            data-kind="approval"
          >
            <button
              type="button"
              className="chip-main"
              {...(inspects ? {} : { 'aria-expanded': open === a.id, 'aria-controls': `approval-detail-${a.id}` })}
              onClick={(e) => (inspects ? onOpenWake(wake, e.currentTarget) : setOpen(open === a.id ? null : a.id))}
              title={copy(language, 'approval.detail')}
            >
              <span className="chip-icon" aria-hidden="true">
                {APPROVAL_ICON}
              </span>
              <span className="chip-agent">{displayText(a.agentName, 'one-line')}</span>
              <span className="chip-sep" aria-hidden="true">
                ·
              </span>
              <span className="chip-text">
                {copy(language, 'approval.waiting', { summary: displayText(a.summary) })}
              </span>
            </button>
            <ApprovalAnswerButtons api={api} approval={a} language={language} />
            {!inspects && open === a.id && (
              <pre id={`approval-detail-${a.id}`} className="approval-detail" tabIndex={0}>
                {displayText(a.detail)}
              </pre>
            )}
          </span>
        );
      })}
    </>
  );
}
