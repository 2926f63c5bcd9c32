/**
 * issue 14: the inspector's "Approval requests" section — what the agent asked permission for
 * during this wake's turn, with its status (waiting, allowed once/for the session/always, denied
 * with the reason the agent read, expired, cancelled) and the FULL command or diff. Everything is
 * text React escapes: the detail is a <pre> of plain lines (a diff's +/- lines only get a class),
 * never HTML. A pending request can be answered here too (the same buttons as the chip).
 */
import { useEffect, useState } from 'react';
import type { Approval, ClientApi } from '../../../shared/api/contract.js';
import { displayText } from '../../../shared/display-text.js';
import { copy, type Language } from '../i18n/copy.js';
import { formatDateTime, formatTimeSeconds } from '../i18n/format.js';
import { ApprovalAnswerButtons } from './approval-chip.js';
import { approvalStatusText } from './approval-status-text.js';
import './wake-approvals.css';

/** This wake's requests, oldest first, kept current from `approval.updated` events. */
function useWakeApprovals(api: ClientApi, wakeToken: string): readonly Approval[] {
  const [list, setList] = useState<readonly Approval[]>([]);
  useEffect(() => {
    let live = true;
    setList([]);
    const upsert = (a: Approval) =>
      setList((l) =>
        l.some((x) => x.id === a.id)
          ? l.map((x) => (x.id === a.id ? a : x))
          : [...l, a].sort((x, y) => x.createdAt.localeCompare(y.createdAt)),
      );
    const unsubscribe = api.events.subscribe((e) => {
      if (e.name === 'approval.updated' && e.payload.wakeTokens.includes(wakeToken)) upsert(e.payload);
    });
    void api.approvals.list({ wakeToken }).then((r) => {
      if (live && r.ok) for (const a of r.value) upsert(a);
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [api, wakeToken]);
  return list;
}

/** A diff's line kind, for colour only: the text itself is shown as is. */
function lineClass(approval: Approval, line: string, index: number): string | undefined {
  if (approval.kind !== 'file_change' || index === 0) return undefined;
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return undefined;
}

export function WakeApprovals({
  api,
  wakeToken,
  language,
}: {
  readonly api: ClientApi;
  readonly wakeToken: string;
  readonly language: Language;
}) {
  const approvals = useWakeApprovals(api, wakeToken);
  if (approvals.length === 0) return null;
  return (
    <section className="wake-approvals" aria-labelledby="wake-approvals-title">
      <h3 id="wake-approvals-title">{copy(language, 'approvals.heading', { count: approvals.length })}</h3>
      <ol>
        {approvals.map((a) => (
          <li key={a.id} data-approval={a.id} data-approval-status={a.status}>
            <div className="wake-approval-head">
              <span className="wake-approval-status">{approvalStatusText(a.status, a.scope, language)}</span>
              <span className="wake-approval-tool">{a.tool}</span>
              <time dateTime={a.createdAt} title={formatDateTime(a.createdAt, language)}>
                {formatTimeSeconds(a.createdAt, language)}
              </time>
            </div>
            <p className="wake-approval-summary">{displayText(a.summary)}</p>
            {a.reason !== null && (
              <p className="wake-approval-reason">
                {copy(language, 'approvals.reason', { reason: displayText(a.reason) })}
              </p>
            )}
            <pre className="wake-approval-detail" tabIndex={0} aria-label={copy(language, 'approval.detail')}>
              {displayText(a.detail)
                .split('\n')
                .map((line, i) => (
                  <span key={i} className={lineClass(a, line, i)}>
                    {line}
                    {'\n'}
                  </span>
                ))}
            </pre>
            {/* issue 26: a file change links to the wake's review pane (the same view of its changes). */}
            {a.kind === 'file_change' && (
              <a className="wake-approval-review" href={`#review-title-${wakeToken}`}>
                {copy(language, 'review.open')}
              </a>
            )}
            {a.status === 'pending' && (
              <div className="wake-approval-actions">
                <ApprovalAnswerButtons api={api} approval={a} language={language} />
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
