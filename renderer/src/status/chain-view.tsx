/**
 * issue 25: the chain of a wake in the inspector — who woke whom, each wake's status — from the
 * operator's message to the last hand-off, and how much of the hop budget it has used. Each
 * other wake of the chain opens in the inspector.
 */
import type { Wake } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';
import { CHIP_ICONS, askedBy, chipKind, wakeChipText } from './wake-chips.js';
import './chain.css';

export interface ChainViewProps {
  /** The wakes of the chain, oldest first (status/wake-store.ts `useChainWakes`). */
  readonly wakes: readonly Wake[];
  /** The wake the inspector shows. */
  readonly current: string;
  /** Whether the chain is paused at its budget (state/chain-store.ts). */
  readonly paused: boolean;
  readonly language: Language;
  onOpenWake?(wakeToken: string): void;
}

/** Who woke the wake's agent, in words: "You → Claude", "Claude → Codex", "Codex → Claude (hand-back)". */
export function chainStep(wake: Wake, language: Language): string {
  const from = askedBy(wake);
  if (from === null)
    return wake.cause === 'recovery' ? wake.agentName : copy(language, 'chain.byYou', { agent: wake.agentName });
  return copy(language, wake.cause === 'hand_back' ? 'chain.handBack' : 'chain.woke', { from, agent: wake.agentName });
}

export function ChainView({ wakes, current, paused, language, onOpenWake }: ChainViewProps) {
  if (wakes.length < 2 && !paused) return null;
  const last = wakes.reduce<Wake | undefined>((m, w) => ((w.hop ?? 0) >= (m?.hop ?? 0) ? w : m), undefined);
  const hops = last?.hop ?? 0;
  const budget = last?.hopBudget ?? 0;
  return (
    <section className="chain-view" aria-labelledby="chain-title">
      <h3 id="chain-title">{copy(language, 'chain.title')}</h3>
      {budget > 0 && (
        <p className="chain-hops" data-hops={hops} data-budget={budget}>
          {copy(language, 'chain.hops', { hops, budget })}
          {paused && <span className="chain-paused-note"> · {copy(language, 'chain.pausedNote')}</span>}
        </p>
      )}
      <ol className="chain-steps">
        {wakes.map((w) => {
          const kind = chipKind(w);
          const step = chainStep(w, language);
          const status = wakeChipText(w, language);
          const body = (
            <>
              <span className="chip-icon" aria-hidden="true">
                {CHIP_ICONS[kind]}
              </span>
              <span className="chain-step-who">{step}</span>
              <span className="chip-sep" aria-hidden="true">
                ·
              </span>
              <span className="chain-step-status">{status}</span>
            </>
          );
          const isCurrent = w.wakeToken === current;
          return (
            <li
              key={w.wakeToken}
              data-chain-wake={w.wakeToken}
              data-status={w.status}
              data-cause={w.cause}
              aria-current={isCurrent ? 'step' : undefined}
            >
              {isCurrent || onOpenWake === undefined ? (
                <span className="chain-step">
                  {body}
                  {isCurrent && <span className="chain-this"> ({copy(language, 'chain.thisWake')})</span>}
                </span>
              ) : (
                <button type="button" className="link-button chain-step" onClick={() => onOpenWake(w.wakeToken)}>
                  {body}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
