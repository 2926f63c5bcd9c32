/**
 * The one status area (`role="status"`) at the end of the conversation, above the composer
 * (UI.md; contract §10.3). Each chip carries `data-status` and `data-wake`; a chip opens the
 * inspector; failure details appear only when the person expands them. Alerts carry
 * `data-alert-wake`, not `data-wake`, so `[data-wake]` selects wake chips only (DESIGN.md).
 */
import { memo, useEffect, useState, type ReactNode } from 'react';
import type { Alert, Chain } from '../../../shared/api/contract.js';
import { promisesRetry } from '../../../shared/agent-readiness.js';
import { copy, type Language } from '../i18n/copy.js';
import { RawDetail, runtimeWordsOf, wakeOutcomeWords } from './failure-details.js';
import type { AgentIdentity } from '../state/agent-store.js';
import { FixText } from './fix-text.js';
import {
  ALERT_ICONS,
  CHIP_ICONS,
  alertText,
  chipBeacons,
  chipCanStop,
  chipElapsed,
  chipText,
  pauseCountdown,
  pausedText,
  statusAlerts,
  statusChips,
  DEFAULT_BEACON_WORDS,
  type BeaconWords,
} from '../status/wake-chips.js';
import { useTargetWakes, type WakeBook } from '../status/wake-store.js';
import { dismissFailure, loadDismissedFailures } from '../status/dismissed-failures.js';
import { usePausedChain, type ChainStore } from '../state/chain-store.js';

const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

/** issue 24: the failed chips the person dismissed, remembered per wake in this browser. */
function useDismissedFailures(): [ReadonlySet<string>, (wakeToken: string) => void] {
  const [dismissed, setDismissed] = useState(() => loadDismissedFailures(storage));
  return [dismissed, (wakeToken) => setDismissed((now) => dismissFailure(storage, now, wakeToken))];
}

/**
 * Re-renders every second while `active` (the elapsed time of active chips). The elapsed text is
 * `aria-hidden`, so the live region announces state changes, never clock ticks (issue 17).
 */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export interface StatusAreaProps {
  readonly target: string;
  /** Every wake the page knows; the area subscribes to its conversation's only (issue 19). */
  readonly wakes: WakeBook;
  readonly alerts: readonly Alert[];
  readonly language: Language;
  onOpenWake(wakeToken: string, opener: HTMLElement): void;
  onDismissAlert(id: string): void;
  readonly dismissed: ReadonlySet<string>;
  /** The accessible name of the live region (a thread pane names its own). */
  readonly label?: string;
  /** issue 14: the approval chips (status/approval-chip.tsx), and the wakes they stand for. */
  readonly approvalChips?: ReactNode;
  readonly waitingWakes?: ReadonlySet<string>;
  /** issue 24: the channel's own beacon / escalation words (null: the translated default); the chip keeps its elapsed time. */
  readonly beaconWords?: BeaconWords;
  /**
   * issue 29: Stop on a working chip ends that agent's turn (`agents.stop`); resolves with the
   * refusal's message when the daemon refused it (e.g. the turn had just ended), else null.
   */
  onStop?(agentId: string): Promise<string | null>;
  /** issue 25: the window's chains; a paused chain of this conversation shows with its Continue. */
  readonly chains?: ChainStore;
  /** issue 25: the operator's Continue (`chains.continue`); resolves with the daemon's refusal, else null. */
  onContinueChain?(chainId: string): Promise<string | null>;
  /**
   * issue 27: Try now / Cancel on a paused chip (`agents.tryNow`, `agents.cancelPause`); resolves
   * with the refusal's message when the daemon refused it, else null.
   */
  onPause?(agentId: string, action: 'tryNow' | 'cancel'): Promise<string | null>;
  /** issue 27: Raise budget on a daily-budget pause: where the budget is raised (the Usage view). */
  onRaiseBudget?(): void;
  /**
   * issue 40 item 5: Retry on a failed chip whose fix promises it (`agents.check`: checks the agent
   * again and starts it anew); resolves with what to tell the person (ready, or still not and why).
   */
  onRetry?(agentId: string): Promise<string>;
  /** issue 39: who the agents are, with their runtime words for a failed chip's Details (the roster). */
  readonly agents?: readonly AgentIdentity[];
}

/** Memoised: it re-renders for its own conversation's wakes and alerts, not for the shell's other state. */
export const StatusArea = memo(function StatusArea({
  target,
  wakes: book,
  alerts,
  language,
  onOpenWake,
  onDismissAlert,
  dismissed,
  label,
  approvalChips,
  waitingWakes,
  beaconWords = DEFAULT_BEACON_WORDS,
  onStop,
  chains,
  onContinueChain,
  onPause,
  onRaiseBudget,
  onRetry,
  agents,
}: StatusAreaProps) {
  const wakes = useTargetWakes(book, target);
  // issue 14: a wake waiting for the operator never shows "Working": its approval chip stands for it.
  const [dismissedFailures, dismissFailed] = useDismissedFailures();
  const chips = statusChips(wakes.values(), target, dismissedFailures).filter((c) => !waitingWakes?.has(c.wakeToken));
  const shownAlerts = statusAlerts(alerts, target, chips, wakes, dismissed);
  const now = useNow(chips.some((c) => c.active));
  const [expanded, setExpanded] = useState<string | null>(null);
  // issue 29: the chips whose Stop was pressed (disabled until the turn ends), and a refusal to show.
  const [stopping, setStopping] = useState<ReadonlySet<string>>(new Set());
  const [stopRefusal, setStopRefusal] = useState<{ wakeToken: string; message: string } | null>(null);
  const stop = (wakeToken: string, agentId: string) => {
    if (onStop === undefined) return;
    setStopping((s) => new Set(s).add(wakeToken));
    setStopRefusal(null);
    void onStop(agentId).then((refused) => {
      if (refused === null) return;
      setStopRefusal({ wakeToken, message: refused });
      setStopping((s) => {
        const next = new Set(s);
        next.delete(wakeToken);
        return next;
      });
    });
  };
  // issue 40 item 5: a failed chip's Retry shares Stop's pending state; what it found shows on the chip.
  const [retried, setRetried] = useState<{ wakeToken: string; text: string } | null>(null);
  const retry = (wakeToken: string, agentId: string) => {
    if (onRetry === undefined) return;
    setStopping((s) => new Set(s).add(wakeToken));
    setRetried(null);
    void onRetry(agentId).then((text) => {
      setStopping((s) => {
        const next = new Set(s);
        next.delete(wakeToken);
        return next;
      });
      setRetried({ wakeToken, text });
    });
  };
  // issue 27: a paused chip's Try now / Cancel share Stop's pending and refusal state.
  const pauseAction = (wakeToken: string, agentId: string, action: 'tryNow' | 'cancel') => {
    if (onPause === undefined) return;
    setStopping((s) => new Set(s).add(wakeToken));
    setStopRefusal(null);
    void onPause(agentId, action).then((refused) => {
      setStopping((s) => {
        const next = new Set(s);
        next.delete(wakeToken);
        return next;
      });
      if (refused !== null) setStopRefusal({ wakeToken, message: refused });
    });
  };
  return (
    <div
      className="status-area"
      role="status"
      aria-label={label ?? copy(language, 'status.label')}
      data-target={target}
    >
      {approvalChips}
      {chips.map((chip) => {
        const wake = wakes.get(chip.wakeToken);
        if (wake === undefined) return null;
        const text =
          chip.kind === 'paused'
            ? pausedText(wake, language)
            : chipText(chip.kind, language, {
                words: beaconWords,
                continued: chip.continued,
                stopped: chip.stopped,
              });
        const detailsId = `detail-${chip.wakeToken}`;
        const beacons = chipBeacons(chip, language);
        return (
          <span
            key={chip.wakeToken}
            className={`chip chip-${chip.kind}`}
            data-status={chip.status}
            data-wake={chip.wakeToken}
            data-kind={chip.kind}
          >
            <button type="button" className="chip-main" onClick={(e) => onOpenWake(chip.wakeToken, e.currentTarget)}>
              <span className="chip-icon" aria-hidden="true">
                {CHIP_ICONS[chip.kind]}
              </span>
              <span className="chip-agent">{chip.agentName}</span>
              <span className="chip-sep" aria-hidden="true">
                ·
              </span>
              <span className="chip-text">{text}</span>
              {beacons !== null && (
                // issue 40 item 7: the beacon count, not only the icon ("Demo · Working… · 2 beacons").
                <>
                  <span className="chip-sep" aria-hidden="true">
                    ·
                  </span>
                  <span className="chip-beacons" data-beacons={chip.beacons}>
                    {beacons}
                  </span>
                </>
              )}
              {chip.askedByName !== null && (
                // issue 25: an agent woken by another agent says who asked ("Codex · Working · asked by Claude").
                <>
                  <span className="chip-sep" aria-hidden="true">
                    ·
                  </span>
                  <span className="chip-asked-by">{copy(language, 'chain.askedBy', { agent: chip.askedByName })}</span>
                </>
              )}
              {chip.answerFromName !== null && (
                // issue 40 item 7: a hand-back reads as what happened ("Demo · Replied · after Helper's answer").
                <>
                  <span className="chip-sep" aria-hidden="true">
                    ·
                  </span>
                  <span className="chip-answer-from">
                    {copy(language, 'chain.answerFrom', { agent: chip.answerFromName })}
                  </span>
                </>
              )}
              <span className={`chip-elapsed${chip.kind === 'paused' ? ' chip-countdown' : ''}`} aria-hidden="true">
                {/* issue 40 item 8: a paused chip counts down to its reset instead of up from its start. */}
                {(chip.kind === 'paused' ? pauseCountdown(wake, language, now) : null) ??
                  chipElapsed(wake, language, now)}
              </span>
            </button>
            {onStop !== undefined && chipCanStop(chip.kind) && (
              // issue 29 (UI.md "Every working chip has Stop"): ends the turn now, through the runtime's own interrupt.
              <button
                type="button"
                className="chip-stop"
                aria-label={copy(language, 'chip.stopLabel', { agent: chip.agentName })}
                disabled={stopping.has(chip.wakeToken)}
                onClick={() => stop(chip.wakeToken, chip.agentId)}
              >
                {copy(language, 'chip.stop')}
              </button>
            )}
            {stopRefusal?.wakeToken === chip.wakeToken && chipCanStop(chip.kind) && (
              <span className="chip-detail-text" role="alert">
                {copy(language, 'chip.stopFailed', { reason: stopRefusal.message })}
              </span>
            )}
            {onPause !== undefined && chip.kind === 'paused' && (
              // issue 27: Try now delivers the paused work now; Cancel ends it (failed/stopped_by_operator).
              <>
                {wake.reason !== 'daily_budget' && (
                  <button
                    type="button"
                    className="chip-try-now"
                    disabled={stopping.has(chip.wakeToken)}
                    onClick={() => pauseAction(chip.wakeToken, chip.agentId, 'tryNow')}
                  >
                    {copy(language, 'chip.tryNow')}
                  </button>
                )}
                {wake.reason === 'daily_budget' && onRaiseBudget !== undefined && (
                  <button type="button" className="chip-raise-budget" onClick={onRaiseBudget}>
                    {copy(language, 'chip.raiseBudget')}
                  </button>
                )}
                <button
                  type="button"
                  className="chip-cancel-pause"
                  disabled={stopping.has(chip.wakeToken)}
                  onClick={() => pauseAction(chip.wakeToken, chip.agentId, 'cancel')}
                >
                  {copy(language, 'chip.cancelPause')}
                </button>
              </>
            )}
            {stopRefusal?.wakeToken === chip.wakeToken && chip.kind === 'paused' && (
              <span className="chip-detail-text" role="alert">
                {stopRefusal.message}
              </span>
            )}
            {chip.kind === 'failed' && (
              <button
                type="button"
                className="chip-details"
                aria-expanded={expanded === chip.wakeToken}
                aria-controls={detailsId}
                onClick={() => setExpanded(expanded === chip.wakeToken ? null : chip.wakeToken)}
              >
                {copy(language, 'chip.details')}
              </button>
            )}
            {chip.kind === 'failed' && onRetry !== undefined && promisesRetry(wake.reason) && (
              // issue 40 item 5: the Retry the failure's fix promises, where the failure is shown.
              <button
                type="button"
                className="chip-retry"
                aria-label={copy(language, 'chip.retryLabel', { agent: chip.agentName })}
                disabled={stopping.has(chip.wakeToken)}
                onClick={() => retry(chip.wakeToken, chip.agentId)}
              >
                {copy(language, 'chip.retry')}
              </button>
            )}
            {chip.kind === 'failed' && retried?.wakeToken === chip.wakeToken && (
              <span className="chip-detail-text chip-retry-result">
                <FixText text={retried.text} />
              </span>
            )}
            {chip.kind === 'failed' && (
              // issue 24: a failure stays until a later wake of the agent ends, or the person dismisses it here.
              <button
                type="button"
                className="chip-dismiss"
                aria-label={copy(language, 'chip.dismiss', { agent: chip.agentName })}
                onClick={() => dismissFailed(chip.wakeToken)}
              >
                ×
              </button>
            )}
            {chip.kind === 'failed' && expanded === chip.wakeToken && (
              // issue 15 (UI.md "Failure Details"): the plain words and the fix first, the raw detail on demand below (issue 40 item 5).
              <span id={detailsId} className="chip-detail-text">
                <span className="failure-words">
                  <FixText text={wakeOutcomeWords(wake, language, runtimeWordsOf(agents, wake.agentId)) ?? ''} />
                </span>
                <RawDetail text={chip.detail ?? wake.reason ?? '—'} language={language} as="code" />
              </span>
            )}
          </span>
        );
      })}
      {chains !== undefined && (
        <PausedChain chains={chains} target={target} language={language} onContinue={onContinueChain} />
      )}
      {shownAlerts.map((alert) => {
        // Name the agent when the alert belongs to a wake we know (its chip may have given way to newer wakes).
        const agentName = alert.wakeToken === null ? undefined : book.get(alert.wakeToken)?.agentName;
        return (
          <span
            key={alert.id}
            className={`chip chip-alert alert-${alert.kind}`}
            data-alert={alert.kind}
            data-alert-wake={alert.wakeToken ?? undefined}
          >
            <span className="chip-icon" aria-hidden="true">
              {ALERT_ICONS[alert.kind]}
            </span>
            {agentName !== undefined && (
              <>
                <span className="chip-agent">{agentName}</span>
                <span className="chip-sep" aria-hidden="true">
                  ·
                </span>
              </>
            )}
            <span className="chip-text">{alertText(alert, language, beaconWords)}</span>
            <button
              type="button"
              className="chip-dismiss"
              aria-label={copy(language, 'alert.dismiss')}
              onClick={() => onDismissAlert(alert.id)}
            >
              ×
            </button>
          </span>
        );
      })}
    </div>
  );
});

/**
 * issue 25: the neutral status of a chain at its hop budget — "Agents paused after 6 hand-offs ·
 * Continue" — whose Continue grants another budget (an operator call, like Stop). Disabled while
 * the call runs; a refusal is shown beside it.
 */
function PausedChain({
  chains,
  target,
  language,
  onContinue,
}: {
  readonly chains: ChainStore;
  readonly target: string;
  readonly language: Language;
  readonly onContinue: ((chainId: string) => Promise<string | null>) | undefined;
}) {
  const chain = usePausedChain(chains, target);
  const [pending, setPending] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ chainId: string; message: string } | null>(null);
  if (chain === null) return null;
  const press = (c: Chain) => {
    if (onContinue === undefined) return;
    setPending(c.chainId);
    setRefusal(null);
    void onContinue(c.chainId).then((refused) => {
      setPending(null);
      if (refused !== null) setRefusal({ chainId: c.chainId, message: refused });
    });
  };
  return (
    <span className="chip chip-chain-paused" data-chain={chain.chainId} data-chain-status={chain.status}>
      <span className="chip-icon" aria-hidden="true">
        ⏸
      </span>
      <span className="chip-text">
        {chain.hops === 1 ? copy(language, 'chain.pausedOne') : copy(language, 'chain.paused', { count: chain.hops })}
      </span>
      {onContinue !== undefined && (
        <button
          type="button"
          className="chip-continue"
          aria-label={
            grantOf(chain) === 1
              ? copy(language, 'chain.continueLabelOne')
              : copy(language, 'chain.continueLabel', { count: grantOf(chain) })
          }
          disabled={pending === chain.chainId}
          onClick={() => press(chain)}
        >
          {copy(language, 'chain.continue')}
        </button>
      )}
      {refusal?.chainId === chain.chainId && (
        <span className="chip-detail-text" role="alert">
          {copy(language, 'chain.continueFailed', { reason: refusal.message })}
        </span>
      )}
    </span>
  );
}

/** What one Continue grants: the chain's budget is `limits.agentHops` × (1 + Continues). */
function grantOf(chain: Chain): number {
  return Math.max(1, Math.round(chain.budget / (1 + chain.continues)));
}
