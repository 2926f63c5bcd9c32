/**
 * issue 14: an agent's workspace and permission policy, chosen on its detail view, and its
 * "always" rules with a Revoke each (issue 29: plus the file's rules that wait for confirmation). Saved into agentteam.json by the daemon (`agents.update`,
 * `agents.revokeRule`: validated, only that key, atomic). A new workspace or policy restarts the
 * agent — said next to the Save button. The folder picker exists only in the desktop app (the
 * main process opens it behind the IPC gate); in the browser the path field is the way in.
 */
import { useId, useState } from 'react';
import type { Agent, ClientApi } from '../../../shared/api/contract.js';
import { ISOLATION_MODES, PERMISSION_POLICIES, type Isolation, type PermissionPolicy } from '../../../shared/config.js';
import { baseBranchProblem } from './settings-fields.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';
import './agent-settings-form.css';

/** The workspace + policy form. Keyed by the agent's saved values, so a save (or a file edit) resets the draft. */
export function AgentSettingsForm({
  api,
  agent,
  language,
  canChooseFolder,
  saved,
  onSaved,
}: {
  api: ClientApi;
  agent: Agent;
  language: Language;
  /** The desktop app's folder picker (IPC only; the browser has none). */
  canChooseFolder: boolean;
  /** "Saved" is kept by the parent: a save re-keys (re-mounts) this form with the saved values. */
  saved: boolean;
  onSaved(saved: boolean): void;
}) {
  const t = (key: CopyKey, vars?: Record<string, string>) => copy(language, key, vars);
  const ids = useId();
  const [cwd, setCwd] = useState(agent.cwd ?? '');
  const [permissions, setPermissions] = useState<PermissionPolicy>(agent.permissions ?? 'ask');
  const [isolation, setIsolation] = useState<Isolation>(agent.isolation ?? 'none');
  const [baseBranch, setBaseBranch] = useState(agent.baseBranch ?? '');
  const [saving, setSaving] = useState(false);
  // A workspace refusal is shown under the path field (and described by it); anything else under the form.
  const [error, setError] = useState<{ readonly code: string; readonly message: string } | null>(null);
  const setSaved = onSaved;
  const cwdError = error?.code === 'workspace_invalid' ? error.message : null;
  /** Before the daemon's refusal (empty in English: the refusal names the path in plain English). */
  const invalidLead = t('agentSettings.invalidLead');
  const cwdChanged = cwd.trim() !== (agent.cwd ?? '');
  const policyChanged = permissions !== (agent.permissions ?? 'ask');
  const isolationChanged = isolation !== (agent.isolation ?? 'none');
  const baseChanged = (baseBranch.trim() || null) !== (agent.baseBranch ?? null);
  const baseProblem = baseBranchProblem(baseBranch);
  const dirty = cwdChanged || policyChanged || isolationChanged || baseChanged;

  const save = () => {
    setSaving(true);
    setError(null);
    setSaved(false);
    void api.agents
      .update({
        agentId: agent.id,
        ...(cwdChanged ? { cwd: cwd.trim() } : {}),
        ...(policyChanged ? { permissions } : {}),
        ...(isolationChanged ? { isolation } : {}),
        ...(baseChanged ? { baseBranch: baseBranch.trim() || null } : {}),
      })
      .then((r) => {
        setSaving(false);
        if (!r.ok) setError({ code: r.code, message: r.message });
        else setSaved(true);
      });
  };
  const choose = () => {
    setError(null);
    void api.desktop.chooseFolder(cwd.trim() === '' ? {} : { defaultPath: cwd.trim() }).then((r) => {
      if (!r.ok) setError({ code: r.code, message: r.message });
      else if (r.value.path !== null) setCwd(r.value.path);
    });
  };
  return (
    <section className="agent-settings" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('agentSettings.title')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !saving && baseProblem === null) save();
        }}
      >
        <div className="as-field">
          <label htmlFor={`${ids}-cwd`}>{t('agentSettings.workspace')}</label>
          <div className="as-control">
            <input
              id={`${ids}-cwd`}
              type="text"
              name="cwd"
              value={cwd}
              spellCheck={false}
              autoComplete="off"
              aria-describedby={cwdError === null ? `${ids}-cwd-hint` : `${ids}-cwd-error ${ids}-cwd-hint`}
              aria-invalid={cwdError !== null}
              onChange={(e) => {
                setCwd(e.target.value);
                setSaved(false);
              }}
            />
            {canChooseFolder && (
              <button type="button" className="as-button" onClick={choose}>
                {t('agentSettings.choose')}
              </button>
            )}
          </div>
          {cwdError !== null && (
            <p id={`${ids}-cwd-error`} role="alert" className="as-error">
              {invalidLead !== '' && <span className="as-error-lead">{invalidLead} </span>}
              {cwdError}
            </p>
          )}
          <p id={`${ids}-cwd-hint`} className="as-hint">
            {t('agentSettings.workspaceHint')}
          </p>
        </div>
        <div className="as-field">
          <label htmlFor={`${ids}-policy`}>{t('agentSettings.permissions')}</label>
          <div className="as-control">
            <select
              id={`${ids}-policy`}
              name="permissions"
              value={permissions}
              onChange={(e) => {
                setPermissions(e.target.value as PermissionPolicy);
                setSaved(false);
              }}
            >
              {PERMISSION_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {t(`agentSettings.policy.${p}`)}
                </option>
              ))}
            </select>
          </div>
          {permissions === 'full' && <p className="as-warning permissions-full">⚠ {t('agentSettings.fullWarning')}</p>}
        </div>
        <div className="as-field">
          <label htmlFor={`${ids}-isolation`}>{t('agentSettings.isolation')}</label>
          <div className="as-control">
            <select
              id={`${ids}-isolation`}
              name="isolation"
              value={isolation}
              aria-describedby={`${ids}-isolation-hint`}
              onChange={(e) => {
                setIsolation(e.target.value as Isolation);
                setSaved(false);
              }}
            >
              {ISOLATION_MODES.map((m) => (
                <option key={m} value={m}>
                  {t(`agentSettings.isolation.${m}`)}
                </option>
              ))}
            </select>
          </div>
          <p id={`${ids}-isolation-hint`} className="as-hint">
            {t('agentSettings.isolationHint')}
          </p>
        </div>
        {isolation === 'worktree' && (
          <div className="as-field">
            <label htmlFor={`${ids}-base`}>{t('agentSettings.baseBranch')}</label>
            <div className="as-control">
              <input
                id={`${ids}-base`}
                type="text"
                name="baseBranch"
                value={baseBranch}
                spellCheck={false}
                autoComplete="off"
                maxLength={200}
                aria-invalid={baseProblem !== null}
                aria-describedby={baseProblem === null ? `${ids}-base-hint` : `${ids}-base-error ${ids}-base-hint`}
                onChange={(e) => {
                  setBaseBranch(e.target.value);
                  setSaved(false);
                }}
              />
            </div>
            {baseProblem !== null && (
              <p id={`${ids}-base-error`} role="alert" className="as-error">
                {t(baseProblem)}
              </p>
            )}
            <p id={`${ids}-base-hint`} className="as-hint">
              {t('agentSettings.baseBranchHint')}
            </p>
          </div>
        )}
        {error !== null && cwdError === null && (
          <p role="alert" className="as-error">
            {error.message}
          </p>
        )}
        <div className="as-actions">
          <button type="submit" className="as-button as-primary" disabled={!dirty || saving || baseProblem !== null}>
            {saving ? t('agentSettings.saving') : t('agentSettings.save')}
          </button>
          <p className="as-hint">{t('agentSettings.restartNote')}</p>
        </div>
        <p role="status" className="as-saved">
          {saved ? t('agentSettings.saved') : ''}
        </p>
      </form>
    </section>
  );
}

/** What the operator last did to a rule, for the status line. */
type RuleDone = {
  readonly rule: string;
  readonly key: 'agentSettings.revoked' | 'agentSettings.confirmed' | 'agentSettings.removed';
};

/**
 * The agent's "always" rules, exactly as they were shown when allowed, each with a Revoke; and
 * (issue 29) the rules agentteam.json lists that the daemon never granted — not applied until the
 * operator confirms one (Confirm) or takes it out of the file (Remove).
 */
export function AgentAllowRules({ api, agent, language }: { api: ClientApi; agent: Agent; language: Language }) {
  const t = (key: CopyKey, vars?: Record<string, string>) => copy(language, key, vars);
  const ids = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<RuleDone | null>(null);
  const rules = agent.allow ?? [];
  const unconfirmed = agent.unconfirmedAllow ?? [];
  const act = (rule: string, call: 'revokeRule' | 'confirmRule', key: RuleDone['key']) => {
    setBusy(rule);
    setError(null);
    setDone(null);
    void api.agents[call]({ agentId: agent.id, rule }).then((r) => {
      setBusy(null);
      if (!r.ok) setError(r.message);
      else setDone({ rule, key });
    });
  };
  const button = (rule: string, label: CopyKey, text: CopyKey, onClick: () => void) => (
    <button
      type="button"
      className="as-button"
      aria-label={t(label, { rule })}
      disabled={busy !== null}
      onClick={onClick}
    >
      {t(text)}
    </button>
  );
  return (
    <section className="agent-rules" aria-labelledby={`${ids}-rules`}>
      <h2 id={`${ids}-rules`}>{t('agentSettings.rules')}</h2>
      {rules.length === 0 ? (
        <p className="as-hint">{t('agentSettings.rulesNone')}</p>
      ) : (
        <>
          <ul className="allow-rules" data-field="allow">
            {rules.map((rule) => (
              <li key={rule}>
                <code>{rule}</code>
                {button(rule, 'agentSettings.revokeLabel', 'agentSettings.revoke', () =>
                  act(rule, 'revokeRule', 'agentSettings.revoked'),
                )}
              </li>
            ))}
          </ul>
          <p className="as-hint">{t('agentSettings.rulesHint')}</p>
        </>
      )}
      {unconfirmed.length > 0 && (
        <div className="unconfirmed-rules" role="group" aria-labelledby={`${ids}-unconfirmed`}>
          <h3 id={`${ids}-unconfirmed`}>⚠ {t('agentSettings.unconfirmed')}</h3>
          <p className="as-hint">{t('agentSettings.unconfirmedHint')}</p>
          <ul className="allow-rules" data-field="unconfirmed-allow">
            {unconfirmed.map((rule) => (
              <li key={rule}>
                <code>{rule}</code>
                <span className="rule-actions">
                  {button(rule, 'agentSettings.confirmLabel', 'agentSettings.confirm', () =>
                    act(rule, 'confirmRule', 'agentSettings.confirmed'),
                  )}
                  {button(rule, 'agentSettings.removeLabel', 'agentSettings.remove', () =>
                    act(rule, 'revokeRule', 'agentSettings.removed'),
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {error !== null && (
        <p role="alert" className="as-error">
          {error}
        </p>
      )}
      <p role="status" className="as-saved">
        {done !== null ? t(done.key, { rule: done.rule }) : ''}
      </p>
    </section>
  );
}
