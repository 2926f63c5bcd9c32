/**
 * issue 14: an agent's workspace and permission policy, chosen on its detail view, and its
 * "always" rules with a Revoke each. Saved into agentteam.json by the daemon (`agents.update`,
 * `agents.revokeRule`: validated, only that key, atomic). A new workspace or policy restarts the
 * agent — said next to the Save button. The folder picker exists only in the desktop app (the
 * main process opens it behind the IPC gate); in the browser the path field is the way in.
 */
import { useId, useState } from 'react';
import type { Agent, ClientApi } from '../../../shared/api/contract.js';
import { PERMISSION_POLICIES, type PermissionPolicy } from '../../../shared/config.js';
import type { Language } from '../i18n/copy.js';
import './agent-settings-form.css';

const WORDS = {
  en: {
    title: 'Workspace and permissions',
    workspace: 'Workspace folder',
    workspaceHint: 'The full path of the project folder the agent works in.',
    /** Before the daemon's refusal (its text names the path and is already plain English). */
    invalidLead: '',
    choose: 'Choose folder…',
    permissions: 'Permissions',
    policy: {
      ask: 'Ask — you approve each action',
      'read-only': 'Read only',
      'auto-edit': 'Edit files — commands still ask',
      full: '⚠ Full — no questions asked',
    },
    fullWarning: 'Every command and file edit runs without asking you.',
    save: 'Save and restart',
    saving: 'Saving…',
    restartNote:
      'Saving writes agentteam.json and restarts the agent. Work it had started is delivered again to the restarted agent.',
    saved: 'Saved to agentteam.json. The agent is restarting.',
    rules: 'Always allowed',
    rulesNone: 'No "always" rules. Answering an approval with "Always" adds one here.',
    rulesHint: 'Revoking applies at once: the next such request asks you again.',
    revoke: 'Revoke',
    revokeLabel: (rule: string) => `Revoke ${rule}`,
    revoked: (rule: string) => `Revoked ${rule}.`,
  },
  'zh-CN': {
    title: '工作目录与权限',
    workspace: '工作目录',
    workspaceHint: '智能体工作所在项目文件夹的完整路径。',
    invalidLead: '无法使用该工作目录，未做任何更改。',
    choose: '选择文件夹…',
    permissions: '权限',
    policy: {
      ask: '询问 — 每个操作由你批准',
      'read-only': '只读',
      'auto-edit': '可改文件 — 命令仍需询问',
      full: '⚠ 完全 — 不再询问',
    },
    fullWarning: '所有命令和文件改动都会直接执行，不再询问你。',
    save: '保存并重启',
    saving: '正在保存…',
    restartNote: '保存会写入 agentteam.json 并重启该智能体。它已开始处理的内容会重新交给重启后的智能体。',
    saved: '已保存到 agentteam.json，智能体正在重启。',
    rules: '始终允许',
    rulesNone: '没有“始终允许”的规则。在批准请求时选择“始终”会在这里添加一条。',
    rulesHint: '撤销立即生效：下次同样的请求会再次询问你。',
    revoke: '撤销',
    revokeLabel: (rule: string) => `撤销 ${rule}`,
    revoked: (rule: string) => `已撤销 ${rule}。`,
  },
} as const;

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
  const w = WORDS[language];
  const ids = useId();
  const [cwd, setCwd] = useState(agent.cwd ?? '');
  const [permissions, setPermissions] = useState<PermissionPolicy>(agent.permissions ?? 'ask');
  const [saving, setSaving] = useState(false);
  // A workspace refusal is shown under the path field (and described by it); anything else under the form.
  const [error, setError] = useState<{ readonly code: string; readonly message: string } | null>(null);
  const setSaved = onSaved;
  const cwdError = error?.code === 'workspace_invalid' ? error.message : null;
  const cwdChanged = cwd.trim() !== (agent.cwd ?? '');
  const policyChanged = permissions !== (agent.permissions ?? 'ask');
  const dirty = cwdChanged || policyChanged;

  const save = () => {
    setSaving(true);
    setError(null);
    setSaved(false);
    void api.agents
      .update({
        agentId: agent.id,
        ...(cwdChanged ? { cwd: cwd.trim() } : {}),
        ...(policyChanged ? { permissions } : {}),
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
      <h2 id={`${ids}-title`}>{w.title}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !saving) save();
        }}
      >
        <div className="as-field">
          <label htmlFor={`${ids}-cwd`}>{w.workspace}</label>
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
                {w.choose}
              </button>
            )}
          </div>
          {cwdError !== null && (
            <p id={`${ids}-cwd-error`} role="alert" className="as-error">
              {w.invalidLead !== '' && <span className="as-error-lead">{w.invalidLead} </span>}
              {cwdError}
            </p>
          )}
          <p id={`${ids}-cwd-hint`} className="as-hint">
            {w.workspaceHint}
          </p>
        </div>
        <div className="as-field">
          <label htmlFor={`${ids}-policy`}>{w.permissions}</label>
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
                  {w.policy[p]}
                </option>
              ))}
            </select>
          </div>
          {permissions === 'full' && <p className="as-warning permissions-full">⚠ {w.fullWarning}</p>}
        </div>
        {error !== null && cwdError === null && (
          <p role="alert" className="as-error">
            {error.message}
          </p>
        )}
        <div className="as-actions">
          <button type="submit" className="as-button as-primary" disabled={!dirty || saving}>
            {saving ? w.saving : w.save}
          </button>
          <p className="as-hint">{w.restartNote}</p>
        </div>
        <p role="status" className="as-saved">
          {saved ? w.saved : ''}
        </p>
      </form>
    </section>
  );
}

/** The agent's "always" rules, exactly as they were shown when allowed, each with a Revoke. */
export function AgentAllowRules({ api, agent, language }: { api: ClientApi; agent: Agent; language: Language }) {
  const w = WORDS[language];
  const ids = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const rules = agent.allow ?? [];
  return (
    <section className="agent-rules" aria-labelledby={`${ids}-rules`}>
      <h2 id={`${ids}-rules`}>{w.rules}</h2>
      {rules.length === 0 ? (
        <p className="as-hint">{w.rulesNone}</p>
      ) : (
        <>
          <ul className="allow-rules" data-field="allow">
            {rules.map((rule) => (
              <li key={rule}>
                <code>{rule}</code>
                <button
                  type="button"
                  className="as-button"
                  aria-label={w.revokeLabel(rule)}
                  disabled={busy !== null}
                  onClick={() => {
                    setBusy(rule);
                    setError(null);
                    setDone(null);
                    void api.agents.revokeRule({ agentId: agent.id, rule }).then((r) => {
                      setBusy(null);
                      if (!r.ok) setError(r.message);
                      else setDone(rule);
                    });
                  }}
                >
                  {w.revoke}
                </button>
              </li>
            ))}
          </ul>
          <p className="as-hint">{w.rulesHint}</p>
        </>
      )}
      {error !== null && (
        <p role="alert" className="as-error">
          {error}
        </p>
      )}
      <p role="status" className="as-saved">
        {done !== null ? w.revoked(done) : ''}
      </p>
    </section>
  );
}
