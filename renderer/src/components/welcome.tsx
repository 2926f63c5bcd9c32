/**
 * The first run's welcome (issue 40 item 6): shown where `#general` is still empty, it points at
 * the demo agent (it answers offline, with no account) and lists each coding CLI agent with its
 * readiness read live from the agent store — ready, or the exact command that signs it in — so a
 * sign-in done meanwhile shows at once (a seeded message would go stale). A person may hide it;
 * that choice is kept in this browser's localStorage, like dismissed failures (the daemon has one
 * operator and no UI state).
 */
import { useState } from 'react';
import { runtimeLabel } from '../../../shared/agent-readiness.js';
import type { Agent, InstallableRuntime } from '../../../shared/api/contract.js';
import { copy, type Language } from '../i18n/copy.js';
import { useAgents } from '../state/agent-store.js';
import { useAppState } from '../state/app-state-context.js';
import { useValue } from '../state/value-store.js';
import { agentReadinessText } from './agent-detail.js';
import { FixText } from './fix-text.js';

const HIDDEN_KEY = 'agentteam.welcomeHidden.v1';
const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

function loadHidden(): boolean {
  try {
    return storage?.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
}

/** The demo's commands a person can try first (the demo runtime answers each with no model). */
const TRIES = ['hello', '/edit', '/approve'] as const;

export function Welcome({
  language,
  fallback,
  onRetry,
}: {
  language: Language;
  /** What the empty conversation says once the welcome is hidden. */
  fallback: string;
  /** Retry of an agent that is not ready (the failed chip's): what the check found, or empty. */
  onRetry(agentId: string): Promise<string>;
}) {
  const { state } = useAppState();
  const agents = useAgents(state.agents);
  const installable = useValue(state.installable);
  const [hidden, setHidden] = useState(loadHidden);
  if (hidden) return <p className="messages-empty">{fallback}</p>;
  // The agent view says which agents are the demo (`demo`): the first one (a first run seeds @demo, then @helper)
  // is the one to try; no runtime or agent id is named here.
  const demo = agents.find((a) => a.demo);
  const clis = agents.filter((a) => !a.demo);
  const hide = () => {
    try {
      storage?.setItem(HIDDEN_KEY, '1');
    } catch {
      // Storage denied: hidden until reload, nothing else is lost.
    }
    setHidden(true);
  };
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-welcome>
      <div className="welcome-head">
        <h2 id="welcome-title">{copy(language, 'welcome.title')}</h2>
        <button type="button" className="welcome-hide" onClick={hide}>
          {copy(language, 'welcome.hide')}
        </button>
      </div>
      {demo !== undefined && (
        <>
          <p>{copy(language, 'welcome.demo')}</p>
          <ul className="welcome-tries">
            {TRIES.map((t) => (
              <li key={t}>
                <code>{`@${demo.id} ${t}`}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>{copy(language, 'welcome.clis')}</h3>
      {clis.length === 0 ? (
        <p>{noClisText(installable, language)}</p>
      ) : (
        <ul className="welcome-clis">
          {clis.map((a) => (
            <WelcomeCli key={a.id} agent={a} language={language} onRetry={onRetry} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * issue 39 "Plug-ins": with no coding CLI agent set up, the CLIs a person can install, by the names
 * the daemon's runtime descriptors give them (`agents.installable`): the page names no runtime itself.
 */
function noClisText(installable: readonly InstallableRuntime[], language: Language): string {
  if (installable.length === 0) return copy(language, 'welcome.noClisAny');
  const names = installable.map((r) => runtimeLabel(r.words, language));
  return copy(language, 'welcome.noClis', { clis: names.join(copy(language, 'welcome.listSeparator')) });
}

/** One CLI agent: ready (mention it), or what makes it ready — the sign-in command — and a Retry. */
function WelcomeCli({
  agent,
  language,
  onRetry,
}: {
  agent: Agent;
  language: Language;
  onRetry(agentId: string): Promise<string>;
}) {
  const [checking, setChecking] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const ready = agent.readiness?.ready === true;
  const { label, fix } = agentReadinessText(agent, language);
  const runtime = runtimeLabel(agent.runtimeWords, language);
  const retry = () => {
    setChecking(true);
    setNote(null);
    void onRetry(agent.id).then((message) => {
      setChecking(false);
      setNote(message === '' ? null : message);
    });
  };
  return (
    <li data-welcome-agent={agent.id} data-state={agent.readiness?.state ?? 'starting'}>
      <span className="welcome-cli-name">{agent.name === runtime ? runtime : `${agent.name} · ${runtime}`}</span>{' '}
      <span className="welcome-cli-state">{ready ? copy(language, 'welcome.ready', { id: agent.id }) : label}</span>
      {!ready && fix !== null && (
        <p className="welcome-cli-fix">
          <FixText text={fix} />{' '}
          <button type="button" onClick={retry} disabled={checking}>
            {copy(language, 'welcome.retry')}
          </button>
        </p>
      )}
      {/* What Retry found, where it was clicked (a ready agent's row says so itself). */}
      {note !== null && !ready && (
        <p className="welcome-cli-note" role="status">
          <FixText text={note} />
        </p>
      )}
    </li>
  );
}
