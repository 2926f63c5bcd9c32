/**
 * issue 26: an isolated agent's work on its detail — "Merge into <base>" (a commit message for
 * uncommitted changes; the result: fast-forward, merge commit, up to date, or the conflict with its
 * files and the fix) and "Discard" (a confirmation naming what is lost, from `worktree.changes`,
 * then an explicit confirm). Refusals (a turn running, a dirty checkout) show as the daemon words
 * them. State lives in state/worktree-store.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Agent, ClientApi } from '../../../shared/api/contract.js';
import { uncommittedStatus } from '../../../shared/changes.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import { WorktreeStore } from '../state/worktree-store.js';
import { useValue } from '../state/value-store.js';
import './worktree-actions.css';

export function WorktreeActions({
  api,
  agent,
  base,
  language,
  onChanged,
}: {
  api: ClientApi;
  agent: Agent;
  base: string;
  language: Language;
  /** A merge or discard ran (the changes since base re-read). */
  onChanged(): void;
}) {
  const store = useMemo(() => new WorktreeStore(api, agent.id), [api, agent.id]);
  const state = useValue(store);
  const [message, setMessage] = useState('');
  const t = (key: CopyKey, vars?: Record<string, string | number>) => copy(language, key, vars);
  useEffect(() => {
    void store.load();
  }, [store, agent.state]);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const discardRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state.confirming) cancelRef.current?.focus();
  }, [state.confirming]);

  const h = state.holdings;
  const dirty = h !== null && h.uncommitted.length > 0;
  const m = state.merged;
  const short = (commit: string) => commit.slice(0, 10);
  return (
    <section className="worktree-actions" aria-labelledby={`worktree-actions-${agent.id}`}>
      <h2 id={`worktree-actions-${agent.id}`}>{t('worktree.actions')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void store.merge(message).then(() => {
            setMessage('');
            onChanged();
          });
        }}
      >
        {dirty && (
          <>
            <p className="worktree-uncommitted">{t('worktree.uncommittedCount', { count: h.uncommitted.length })}</p>
            <label className="worktree-message">
              <span>{t('worktree.message')}</span>
              <input type="text" value={message} maxLength={2000} onChange={(e) => setMessage(e.target.value)} />
            </label>
          </>
        )}
        <div className="agent-actions">
          <button type="submit" disabled={state.busy}>
            {state.busy ? t('worktree.working') : t('worktree.merge', { base })}
          </button>
          <button
            type="button"
            ref={discardRef}
            disabled={state.busy}
            aria-haspopup="dialog"
            onClick={() => void store.askDiscard()}
          >
            {t('worktree.discard')}
          </button>
        </div>
      </form>
      {m !== null && m.kind === 'merged' && (
        <p role="status" data-merge={m.how}>
          {t(`worktree.merged.${m.how}`, { base, commit: short(m.commit) })}
        </p>
      )}
      {m !== null && m.kind === 'conflict' && (
        <div role="alert" data-merge="conflict">
          <p>{t('worktree.conflict', { message: m.message })}</p>
          <h3>{t('worktree.conflictFiles')}</h3>
          <ul>
            {m.files.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {m !== null && m.kind === 'refused' && (
        <p role="alert" data-merge="refused">
          {t('worktree.refused', { message: m.message })}
        </p>
      )}
      {state.discarded !== null && (
        <p role="status" data-discarded="">
          {t('worktree.discarded', { base, commit: short(state.discarded.commit) })}
        </p>
      )}
      {state.error !== null && <p role="alert">{state.error}</p>}
      {state.confirming && h !== null && (
        <div
          role="alertdialog"
          aria-modal="false"
          aria-labelledby={`worktree-confirm-${agent.id}`}
          className="worktree-confirm"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              store.cancelDiscard();
              discardRef.current?.focus();
            }
          }}
        >
          <h3 id={`worktree-confirm-${agent.id}`}>{t('worktree.confirmTitle', { agent: agent.name })}</h3>
          <p>{t('worktree.confirmLead', { branch: h.worktree.branch, base })}</p>
          {h.uncommitted.length === 0 && h.commits.length === 0 && <p>{t('worktree.lostNothing')}</p>}
          {h.uncommitted.length > 0 && (
            <>
              <h4>{t('worktree.lostUncommitted')}</h4>
              <ul data-lost="uncommitted">
                {h.uncommitted.map((f) => (
                  <li key={f.path}>
                    <code>{f.path}</code> ({t(`review.status.${uncommittedStatus(f.status)}`)})
                  </li>
                ))}
              </ul>
            </>
          )}
          {h.commits.length > 0 && (
            <>
              <h4>{t('worktree.lostCommits', { base })}</h4>
              <ul data-lost="commits">
                {h.commits.map((c) => (
                  <li key={c}>
                    <code>{c}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="agent-actions">
            <button type="button" className="danger" onClick={() => void store.discard().then(onChanged)}>
              {t('worktree.confirm')}
            </button>
            <button
              type="button"
              ref={cancelRef}
              onClick={() => {
                store.cancelDiscard();
                discardRef.current?.focus();
              }}
            >
              {t('worktree.cancel')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
