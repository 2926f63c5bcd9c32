/**
 * One agent in detail (issue 15, issue 17 "Agents"): runtime, CLI version, workspace, permission
 * policy and "always" rules (issue 14: both chosen here, each rule with a Revoke), model,
 * readiness with its one-sentence fix and a Retry (re-checks without a model call and, issue 40,
 * starts anew an agent that could not start), and its
 * recent wakes. Copy comes from shared/agent-readiness.ts (the CLI prints the same sentences).
 */
import { useEffect, useState } from 'react';
import { readinessFix, readinessLabel, runtimeLabel } from '../../../shared/agent-readiness.js';
import { costText } from './agent-cost.js';
import type { Agent, ClientApi, Wake } from '../../../shared/api/contract.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import type { UsageStore } from '../state/usage-store.js';
import { AgentAllowRules, AgentSettingsForm } from './agent-settings-form.js';
import { AgentUsageFacts } from './usage-view.js';
import { ReviewPane } from './review-pane.js';
import { WorktreeActions } from './worktree-actions.js';
import { FixText } from './fix-text.js';
import { CHIP_ICONS, chipKind, pausedText, wakeChipText } from '../status/wake-chips.js';
import { usePausedWake, WakeBook } from '../status/wake-store.js';

/** No wakes known (a detail shown without the window's wake book): never paused. */
const NO_WAKES = new WakeBook();

/** The readiness of a row or the detail: label and fix, translated. */
export function agentReadinessText(agent: Agent, language: Language): { label: string; fix: string | null } {
  const r = agent.readiness;
  const state = r?.state ?? 'starting';
  const input = {
    words: agent.runtimeWords,
    auth: agent.auth ?? 'cli-login',
    restart: r?.restart ?? null,
    // issue 40: `cannot_start`'s fix is its cause's.
    reason: r?.reason ?? null,
  } as const;
  return { label: readinessLabel(state, language, input), fix: readinessFix(state, language, input) };
}

export function AgentDetail({
  api,
  agent,
  language,
  onMessage,
  onOpenWake,
  canChooseFolder = false,
  usage,
  wakes: wakeBook = NO_WAKES,
}: {
  api: ClientApi;
  /** issue 40 item 8: the window's wakes: a paused wake of the agent shows here with Try now. */
  wakes?: WakeBook;
  /** issue 27: the usage store (the detail shows today and the 7 days). */
  usage?: UsageStore;
  agent: Agent;
  language: Language;
  /** issue 14: the desktop app's folder picker is offered (IPC transport only). */
  canChooseFolder?: boolean;
  onMessage(agentId: string): void;
  onOpenWake(wakeToken: string): void;
}) {
  const t = (key: CopyKey) => copy(language, key);
  const [wakes, setWakes] = useState<Wake[]>([]);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // issue 26: bumped by a merge or discard so the changes since base re-read.
  const [worktreeRevision, setWorktreeRevision] = useState(0);
  useEffect(() => {
    let live = true;
    void api.wakes.list({ limit: 200 }).then((r) => {
      if (live && r.ok)
        setWakes(
          r.value
            .filter((x) => x.agentId === agent.id)
            .slice(-10)
            .reverse(),
        );
    });
    return () => {
      live = false;
    };
  }, [api, agent.id, agent.state]);
  const { label, fix } = agentReadinessText(agent, language);
  const state = agent.readiness?.state ?? 'starting';
  const paused = usePausedWake(wakeBook, agent.id);
  const [trying, setTrying] = useState(false);
  return (
    <section className="page agent-detail" aria-labelledby="agent-detail-title" data-agent={agent.id}>
      <h1 id="agent-detail-title">{agent.name}</h1>
      <dl className="agent-facts">
        <dt>{t('agentDetail.runtime')}</dt>
        <dd data-field="runtime">{runtimeLabel(agent.runtimeWords, language)}</dd>
        <dt>{t('agentDetail.version')}</dt>
        <dd data-field="cli-version">{agent.readiness?.cliVersion ?? (agent.demo ? '—' : t('agentDetail.unknown'))}</dd>
        <dt>{t('agentDetail.workspace')}</dt>
        <dd data-field="cwd">
          <code>{agent.cwd ?? '—'}</code>
        </dd>
        {agent.isolation === 'worktree' && (
          // issue 26: where the isolated agent really works, its branch and the base it merges into.
          <>
            <dt>{t('agentDetail.worktree')}</dt>
            <dd data-field="worktree">
              {agent.worktree ? <code>{agent.worktree.path}</code> : t('agentDetail.worktreePending')}
            </dd>
            {agent.worktree && (
              <>
                <dt>{t('agentDetail.worktreeBranch')}</dt>
                <dd data-field="worktree-branch">
                  <code>{agent.worktree.branch}</code>
                </dd>
                <dt>{t('agentDetail.worktreeBase')}</dt>
                <dd data-field="worktree-base">
                  <code>{agent.worktree.base}</code>
                </dd>
              </>
            )}
          </>
        )}
        {!agent.demo && agent.permissions !== undefined && (
          // issue 14: the policy, and the operator's "always" rules exactly as they were shown.
          <>
            <dt>{t('agentDetail.permissions')}</dt>
            <dd data-field="permissions" data-permissions={agent.permissions}>
              <code>{agent.permissions}</code>
              {agent.permissions === 'full' && (
                <span className="permissions-full"> ⚠ {t('agentDetail.fullWarning')}</span>
              )}
            </dd>
          </>
        )}
        <dt>{t('agentDetail.model')}</dt>
        <dd data-field="model">{agent.model ?? t('agentDetail.defaultModel')}</dd>
        {!agent.demo && (
          <>
            <dt>{t('agentDetail.signIn')}</dt>
            <dd data-field="auth">{agent.auth === 'env' ? t('agentDetail.signInEnv') : t('agentDetail.signInCli')}</dd>
          </>
        )}
        {costText(agent, language) !== null && (
          // issue 42: what its process tree costs now (0 MB while it sleeps).
          <>
            <dt>{t('agentDetail.cost')}</dt>
            <dd data-field="cost">{costText(agent, language)}</dd>
          </>
        )}
        <dt>{t('agentDetail.readiness')}</dt>
        <dd data-field="readiness" data-readiness={state}>
          <strong>{label}</strong>
          {fix !== null && (
            <p className="readiness-fix">
              <FixText text={fix} />
            </p>
          )}
          {paused !== undefined && (
            // issue 40 item 8: a usage pause is visible on the agent's page too, with the chip's Try now
            // (a daily budget is raised in the Usage view instead: trying again before then would pause again).
            <p className="agent-paused" data-paused={paused.reason ?? 'paused'}>
              <span>{pausedText(paused, language)}</span>
              {paused.reason !== 'daily_budget' && (
                <>
                  {' '}
                  <button
                    type="button"
                    disabled={trying}
                    onClick={() => {
                      setTrying(true);
                      setError(null);
                      void api.agents.tryNow({ agentId: agent.id }).then((r) => {
                        setTrying(false);
                        if (!r.ok) setError(r.message);
                      });
                    }}
                  >
                    {copy(language, 'chip.tryNow')}
                  </button>
                </>
              )}
            </p>
          )}
        </dd>
      </dl>
      <div className="agent-actions">
        <button
          type="button"
          disabled={checking}
          onClick={() => {
            setChecking(true);
            setError(null);
            void api.agents.check({ agentId: agent.id }).then((r) => {
              setChecking(false);
              if (!r.ok) setError(r.message);
            });
          }}
        >
          {checking ? t('agentDetail.checking') : t('agentDetail.retry')}
        </button>
        <button type="button" onClick={() => onMessage(agent.id)}>
          {t('agentDetail.message')}
        </button>
      </div>
      {error !== null && <p role="alert">{error}</p>}
      {agent.isolation === 'worktree' && agent.worktree && (
        // issue 26: the isolated agent's work — merge or discard it, and what it changed since its base.
        <>
          <WorktreeActions
            api={api}
            agent={agent}
            base={agent.worktree.base}
            language={language}
            onChanged={() => setWorktreeRevision((n) => n + 1)}
          />
          <ReviewPane
            api={api}
            source={{ kind: 'sinceBase', agentId: agent.id }}
            language={language}
            revision={`${agent.state}-${worktreeRevision}`}
            title={copy(language, 'worktree.sinceBase', { base: agent.worktree.base })}
          />
        </>
      )}
      {!agent.demo && (
        // issue 14: chosen here, saved into agentteam.json; keyed so a saved change resets the draft.
        <>
          <AgentSettingsForm
            key={`${agent.cwd ?? ''}\n${agent.permissions ?? ''}\n${agent.isolation ?? ''}\n${agent.baseBranch ?? ''}`}
            api={api}
            agent={agent}
            language={language}
            canChooseFolder={canChooseFolder}
            saved={saved}
            onSaved={setSaved}
          />
        </>
      )}
      {/* issue 40 item 4: the demo asks approvals too, so its "always" rules are listed (with Revoke) like any agent's. */}
      <AgentAllowRules api={api} agent={agent} language={language} />
      {/* issue 27: today (UTC) and the last 7 days, the limit windows and the budget. */}
      {usage !== undefined && <AgentUsageFacts usage={usage} agentId={agent.id} language={language} />}
      <h2>{t('agentDetail.recent')}</h2>
      {wakes.length === 0 ? (
        <p>{t('agentDetail.none')}</p>
      ) : (
        <ul className="agent-wakes">
          {wakes.map((x) => (
            <li key={x.wakeToken}>
              <button
                type="button"
                className="link-button"
                onClick={() => onOpenWake(x.wakeToken)}
                data-wake={x.wakeToken}
              >
                {x.target} · <RecentWakeStatus wake={x} language={language} /> ·{' '}
                <time dateTime={x.createdAt}>{new Date(x.createdAt).toLocaleString(language)}</time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A recent wake's status in the chips' own words and icon (never the raw status or reason code);
 * its failure detail is one click away, in the inspector the row opens.
 */
function RecentWakeStatus({ wake, language }: { wake: Wake; language: Language }) {
  const kind = chipKind(wake);
  return (
    <span data-status={wake.status}>
      <span aria-hidden="true">{CHIP_ICONS[kind]}</span> {wakeChipText(wake, language)}
    </span>
  );
}
