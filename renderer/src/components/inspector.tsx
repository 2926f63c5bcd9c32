/**
 * The inspector of one wake: its timeline in plain words (statuses, beacons, final check,
 * delivery attempts and alerts) and what the agent was sent, in order (contract §8.4). Failure
 * detail is inside a collapsed disclosure: shown only when the person opens it (contract §10.3).
 * A drawer beside the conversation on wide screens, a full-screen sheet on narrow ones (issue 17).
 * Esc closes; focus returns to the chip that opened it. issue 14: the approval requests of the
 * wake's turn, with the full command or diff (status/wake-approvals.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiResponse, ClientApi, Wake } from '../../../shared/api/contract.js';
import type { AgentIdentity } from '../state/agent-store.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy, type Language } from '../i18n/copy.js';
import { FailureDetails } from './failure-details.js';
import { WakeUsageFacts } from './usage-view.js';
import { formatDateTime, formatTimeSeconds } from '../i18n/format.js';
import { auditLine, promptKindText, timelineLine, timelineRows } from '../status/timeline-copy.js';
import { shortWakeId } from '../../../shared/wake-id.js';
import { CHIP_ICONS, chipElapsed, chipKind, wakeChipText } from '../status/wake-chips.js';
import { APPROVAL_ICON } from '../status/approval-chip.js';
import { WakeApprovals } from '../status/wake-approvals.js';
import { ReviewPane } from './review-pane.js';
import { ChainView } from '../status/chain-view.js';
import { ChannelDelivery } from '../status/channel-delivery.js';

export interface InspectorProps {
  readonly api: ClientApi;
  readonly wakeToken: string;
  /** The live wake (from events), so the drawer refreshes when it changes. */
  readonly wake: Wake | undefined;
  readonly agents: readonly AgentIdentity[];
  readonly language: Language;
  /** issue 14: the wake waits for the operator's approval: its chip says so, never "Working". */
  readonly waiting?: boolean;
  onClose(): void;
  /** issue 24: open another wake's inspector (the recovery that continues this one, or the wakes it continues). */
  onOpenWake?(wakeToken: string): void;
  /** issue 25: the wakes of this wake's chain, oldest first (who woke whom), and whether it is paused. */
  readonly chainWakes?: readonly Wake[];
  readonly chainPaused?: boolean;
}

export function Inspector({
  api,
  wakeToken,
  wake,
  agents,
  language,
  waiting = false,
  onClose,
  onOpenWake,
  chainWakes = [],
  chainPaused = false,
}: InspectorProps) {
  const [data, setData] = useState<ApiResponse<'wakes.inspect'> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const revision = `${wake?.status ?? ''}:${wake?.beacons ?? 0}:${wake?.finalCheck ? 1 : 0}`;
  const t = (key: Parameters<typeof copy>[1], vars?: Record<string, string | number>) => copy(language, key, vars);

  useEffect(() => {
    let live = true;
    void api.wakes.inspect({ wakeToken }).then((r) => {
      if (!live) return;
      if (r.ok) {
        setData(r.value);
        setError(null);
      } else setError(r.message);
    });
    return () => {
      live = false;
    };
  }, [api, wakeToken, revision]);

  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const shown = data?.wake ?? wake;
  const kind = shown === undefined ? null : chipKind(shown);
  return (
    <aside className="inspector sheet" aria-labelledby="inspector-title" data-wake={wakeToken}>
      <header className="inspector-head">
        <h2 id="inspector-title">
          {shown === undefined
            ? t('inspector.loading')
            : t('inspector.title', {
                agent: shown.agentName,
                conversation: conversationTitle(shown.target, agents, language).title,
              })}
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          onClick={onClose}
          aria-label={t('inspector.close')}
        >
          ×
        </button>
      </header>
      {error !== null && <p role="alert">{t('error.generic', { message: error })}</p>}
      {shown !== undefined && kind !== null && (
        <div className="inspector-summary">
          {waiting ? (
            <span className="chip chip-static chip-approval" data-status="waiting_approval">
              <span className="chip-icon" aria-hidden="true">
                {APPROVAL_ICON}
              </span>
              <span className="chip-text">{copy(language, 'approvals.status.pending')}</span>
            </span>
          ) : (
            <span className={`chip chip-static chip-${kind}`} data-status={shown.status}>
              <span className="chip-icon" aria-hidden="true">
                {CHIP_ICONS[kind]}
              </span>
              <span className="chip-text">{wakeChipText(shown, language)}</span>
              <span className="chip-elapsed">{chipElapsed(shown, language, Date.now())}</span>
            </span>
          )}
          <dl className="inspector-facts">
            <dt>{t('inspector.started')}</dt>
            <dd>
              <time dateTime={shown.createdAt} title={formatDateTime(shown.createdAt, language)}>
                {formatTimeSeconds(shown.createdAt, language)}
              </time>
            </dd>
            <dt>{t('inspector.wakeId')}</dt>
            <dd>
              <code className="wake-id" title={wakeToken}>
                {shortWakeId(wakeToken)}
              </code>
            </dd>
            {data !== null && (data.continuedIn !== null || data.continues.length > 0) && (
              <>
                <dt>{t('inspector.continuation')}</dt>
                <dd className="continuation">
                  {data.continuedIn !== null && (
                    <WakeLink
                      token={data.continuedIn}
                      label={t('inspector.continuedIn', { wake: shortWakeId(data.continuedIn) })}
                      onOpenWake={onOpenWake}
                    />
                  )}
                  {data.continues.map((original) => (
                    <WakeLink
                      key={original}
                      token={original}
                      label={t('inspector.continues', { wake: shortWakeId(original) })}
                      onOpenWake={onOpenWake}
                    />
                  ))}
                </dd>
              </>
            )}
          </dl>
        </div>
      )}
      {shown !== undefined && <FailureDetails wake={shown} language={language} agents={agents} />}
      {/* issue 27: what the runtime reported this wake's turns consumed. */}
      {data !== null && <WakeUsageFacts usage={data.usage ?? null} language={language} />}
      <ChainView
        wakes={chainWakes}
        current={wakeToken}
        paused={chainPaused}
        language={language}
        {...(onOpenWake === undefined ? {} : { onOpenWake })}
      />
      <WakeApprovals api={api} wakeToken={wakeToken} language={language} />
      {/* issue 26: what this wake changed in its agent's workspace, with comments that go back to the agent. */}
      <ReviewPane api={api} source={{ kind: 'wake', wakeToken }} language={language} revision={revision} />
      {/* issue 40 item 7: where the reply arrived, per channel (status, attempts, last error). */}
      {data !== null && <ChannelDelivery events={data.events} language={language} />}
      <h3>{t('inspector.timeline')}</h3>
      {data === null && error === null && <p>{t('inspector.loading')}</p>}
      {data !== null && (
        <ol className="timeline">
          {timelineRows(data.events, data.audit).map((row, i) => {
            // issue 24: an audited send (contract §8.3) sits among the events, in time order.
            const line =
              row.kind === 'event'
                ? timelineLine(row.event, data.wake.agentName, language)
                : auditLine(row.audit, conversationTitle(row.audit.target, agents, language).title, language);
            const at = row.kind === 'event' ? row.event.at : row.audit.at;
            return (
              <li
                key={i}
                data-kind={row.kind === 'event' ? row.event.kind : row.audit.kind}
                data-status={row.kind === 'event' ? (row.event.status ?? undefined) : undefined}
              >
                <span className="timeline-kind">{line.label}</span>
                {line.note !== null && <span className="timeline-reason">{line.note}</span>}
                <time dateTime={at} title={formatDateTime(at, language)}>
                  {formatTimeSeconds(at, language)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
      {data !== null && (
        <>
          <h3>{t('inspector.promptInputs', { count: data.promptInputs.length })}</h3>
          {data.promptInputs.length === 0 && <p>{t('inspector.noPromptInputs')}</p>}
          <ol className="prompt-inputs">
            {data.promptInputs.map((p) => (
              <li key={p.id} data-prompt-kind={p.kind} data-seq={p.seq}>
                <details>
                  <summary className="prompt-head">
                    <span className="prompt-kind">{promptKindText(p.kind, language)}</span>
                    <time dateTime={p.at} title={formatDateTime(p.at, language)}>
                      {formatTimeSeconds(p.at, language)}
                    </time>
                  </summary>
                  <pre className="prompt-text" tabIndex={0}>
                    {p.text}
                  </pre>
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}

/** issue 24 (contract §6.6): a link between an original wake and the recovery wake that continues it. */
function WakeLink({
  token,
  label,
  onOpenWake,
}: {
  readonly token: string;
  readonly label: string;
  readonly onOpenWake: ((wakeToken: string) => void) | undefined;
}) {
  if (onOpenWake === undefined)
    return (
      <span className="wake-link" data-wake-link={token} title={token}>
        {label}
      </span>
    );
  return (
    <button
      type="button"
      className="link-button wake-link"
      data-wake-link={token}
      title={token}
      onClick={() => onOpenWake(token)}
    >
      {label}
    </button>
  );
}
