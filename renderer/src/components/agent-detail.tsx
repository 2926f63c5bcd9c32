/**
 * One agent in detail (issue 15, issue 17 "Agents"): runtime, CLI version, workspace, permission
 * policy and "always" rules (issue 14: both chosen here, each rule with a Revoke), model,
 * readiness with its one-sentence fix and a Retry (re-checks without a model call), and its
 * recent wakes. Copy comes from shared/agent-readiness.ts (the CLI prints the same sentences).
 */
import { useEffect, useState } from 'react';
import { readinessFix, readinessLabel, runtimeLabel } from '../../../shared/agent-readiness.js';
import type { Agent, ClientApi, Wake } from '../../../shared/api/contract.js';
import type { Language } from '../i18n/copy.js';
import { AgentAllowRules, AgentSettingsForm } from './agent-settings-form.js';

const WORDS = {
  en: {
    runtime: 'Runtime',
    version: 'CLI version',
    workspace: 'Workspace',
    permissions: 'Permissions',
    fullWarning: 'no questions asked: every command and edit runs',
    model: 'Model',
    defaultModel: 'default',
    readiness: 'Readiness',
    signIn: 'Sign-in',
    signInCli: 'your CLI login',
    signInEnv: "keys in this agent's env",
    retry: 'Retry',
    checking: 'Checking…',
    recent: 'Recent wakes',
    none: 'No wakes yet.',
    message: 'Message',
    unknown: 'unknown',
  },
  'zh-CN': {
    runtime: '运行时',
    version: '命令行版本',
    workspace: '工作目录',
    permissions: '权限',
    fullWarning: '不再询问：所有命令和改动都会直接执行',
    model: '模型',
    defaultModel: '默认',
    readiness: '就绪状态',
    signIn: '登录方式',
    signInCli: '你的命令行登录',
    signInEnv: '此智能体 env 中的密钥',
    retry: '重试',
    checking: '正在检查…',
    recent: '最近的唤醒',
    none: '还没有唤醒。',
    message: '发消息',
    unknown: '未知',
  },
} as const;

/** The readiness of a row or the detail: label and fix, translated. */
export function agentReadinessText(agent: Agent, language: Language): { label: string; fix: string | null } {
  const r = agent.readiness;
  const state = r?.state ?? 'starting';
  const input = { runtime: agent.runtime, auth: agent.auth ?? 'cli-login', restart: r?.restart ?? null } as const;
  return { label: readinessLabel(state, language, input), fix: readinessFix(state, language, input) };
}

export function AgentDetail({
  api,
  agent,
  language,
  onMessage,
  onOpenWake,
  canChooseFolder = false,
}: {
  api: ClientApi;
  agent: Agent;
  language: Language;
  /** issue 14: the desktop app's folder picker is offered (IPC transport only). */
  canChooseFolder?: boolean;
  onMessage(agentId: string): void;
  onOpenWake(wakeToken: string): void;
}) {
  const w = WORDS[language];
  const [wakes, setWakes] = useState<Wake[]>([]);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
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
  return (
    <section className="page agent-detail" aria-labelledby="agent-detail-title" data-agent={agent.id}>
      <h1 id="agent-detail-title">{agent.name}</h1>
      <dl className="agent-facts">
        <dt>{w.runtime}</dt>
        <dd data-field="runtime">{runtimeLabel(agent.runtime)}</dd>
        <dt>{w.version}</dt>
        <dd data-field="cli-version">{agent.readiness?.cliVersion ?? (agent.demo ? '—' : w.unknown)}</dd>
        <dt>{w.workspace}</dt>
        <dd data-field="cwd">
          <code>{agent.cwd ?? '—'}</code>
        </dd>
        {!agent.demo && agent.permissions !== undefined && (
          // issue 14: the policy, and the operator's "always" rules exactly as they were shown.
          <>
            <dt>{w.permissions}</dt>
            <dd data-field="permissions" data-permissions={agent.permissions}>
              <code>{agent.permissions}</code>
              {agent.permissions === 'full' && <span className="permissions-full"> ⚠ {w.fullWarning}</span>}
            </dd>
          </>
        )}
        <dt>{w.model}</dt>
        <dd data-field="model">{agent.model ?? w.defaultModel}</dd>
        {!agent.demo && (
          <>
            <dt>{w.signIn}</dt>
            <dd data-field="auth">{agent.auth === 'env' ? w.signInEnv : w.signInCli}</dd>
          </>
        )}
        <dt>{w.readiness}</dt>
        <dd data-field="readiness" data-readiness={state}>
          <strong>{label}</strong>
          {fix !== null && <p className="readiness-fix">{fix}</p>}
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
          {checking ? w.checking : w.retry}
        </button>
        <button type="button" onClick={() => onMessage(agent.id)}>
          {w.message}
        </button>
      </div>
      {error !== null && <p role="alert">{error}</p>}
      {!agent.demo && (
        // issue 14: chosen here, saved into agentteam.json; keyed so a saved change resets the draft.
        <>
          <AgentSettingsForm
            key={`${agent.cwd ?? ''}\n${agent.permissions ?? ''}`}
            api={api}
            agent={agent}
            language={language}
            canChooseFolder={canChooseFolder}
            saved={saved}
            onSaved={setSaved}
          />
          <AgentAllowRules api={api} agent={agent} language={language} />
        </>
      )}
      <h2>{w.recent}</h2>
      {wakes.length === 0 ? (
        <p>{w.none}</p>
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
                {x.target} · <span data-status={x.status}>{x.status}</span>
                {x.reason !== null && ` (${x.reason})`} ·{' '}
                <time dateTime={x.createdAt}>{new Date(x.createdAt).toLocaleString(language)}</time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
