/**
 * The application shell: picks the transport, holds what the daemon told it (conversations,
 * messages per conversation, wakes, alerts, agents, settings), keeps it current from events,
 * and lays out sidebar · conversation · inspector (UI.md).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Agent, Alert, ApiEvent, ClientApi, Conversation, Settings, Wake } from '../../shared/api/contract.js';
import { pickTransport, type Transport } from './api/pick-transport.js';
import type { ConnectionState } from './api/ws-client.js';
import { AgentsPage } from './components/agents-page.js';
import { ConversationView } from './components/conversation-view.js';
import { Inspector } from './components/inspector.js';
import { SettingsPage } from './components/settings-page.js';
import { Sidebar, type View } from './components/sidebar.js';
import { Switcher } from './components/switcher.js';
import { emptyLog, mergeMessages, olderPageCursor, type MessageLog } from './conversations/message-log.js';
import { copy, type Language } from './i18n/copy.js';
import { upsertWake, upsertWakes } from './status/wake-store.js';
import { ApprovalChips, usePendingApprovals, waitingWakes } from './status/approval-chip.js';

const PAGE = 200;
const MAX_ALERTS = 50;

export function App() {
  const transport = useMemo<Transport>(() => pickTransport(), []);
  if (transport.kind === 'none') {
    return (
      <main className="fatal">
        <h1>AgentTeam</h1>
        <p>{copy(navigator.language.startsWith('zh') ? 'zh-CN' : 'en', 'connection.noToken')}</p>
      </main>
    );
  }
  return <Connected api={transport.api} connection={transport.connection} />;
}

function Connected({
  api,
  connection,
}: {
  api: ClientApi;
  connection: Extract<Transport, { kind: 'ws' }>['connection'] | null;
}) {
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [agents, setAgents] = useState<Agent[]>([]);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [wakes, setWakes] = useState<ReadonlyMap<string, Wake>>(new Map());
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [logs, setLogs] = useState<ReadonlyMap<string, MessageLog>>(new Map());
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [view, setView] = useState<View>({ kind: 'conversation', target: '#general' });
  const [inspecting, setInspecting] = useState<string | null>(null);
  const [switcher, setSwitcher] = useState(false);
  const [conn, setConn] = useState<ConnectionState>(connection?.get() ?? 'open');
  const [error, setError] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // issue 14: approvals waiting for the operator (status/approval-chip.tsx).
  const approvals = usePendingApprovals(api);
  const language: Language = settings?.language ?? 'en';
  const target = view.kind === 'conversation' ? view.target : null;

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const loadAll = useCallback(async () => {
    const [c, a, s, w] = await Promise.all([
      api.conversations.list({}),
      api.agents.list({}),
      api.settings.get({}),
      api.wakes.list({ limit: 1000 }),
    ]);
    if (c.ok) {
      setConversations(c.value);
      setView((v) =>
        v.kind === 'conversation' && !c.value.some((x) => x.target === v.target) && c.value[0] !== undefined
          ? { kind: 'conversation', target: c.value[0].target }
          : v,
      );
    }
    if (a.ok) setAgents(a.value);
    if (s.ok) setSettings(s.value);
    if (w.ok) setWakes((m) => upsertWakes(m, w.value));
    const failed = [c, a, s, w].find((r) => !r.ok);
    setError(failed !== undefined && !failed.ok ? failed.message : null);
    // Messages may have been missed while disconnected: drop cached logs, refetch on view.
    setLogs(new Map());
  }, [api]);

  useEffect(() => {
    const onEvent = (event: ApiEvent): void => {
      switch (event.name) {
        case 'message.stored': {
          const m = event.payload;
          setLogs((logs) => {
            const log = logs.get(m.target);
            if (log === undefined) return logs;
            const next = new Map(logs);
            next.set(m.target, mergeMessages(log, [m]));
            return next;
          });
          setConversations((cs) => {
            // A message in a conversation we do not list yet (a new DM or thread): refetch the list.
            if (!cs.some((c) => c.target === m.target))
              void api.conversations.list({}).then((r) => r.ok && setConversations(r.value));
            return cs.map((c) => (c.target === m.target && c.lastSeq < m.seq ? { ...c, lastSeq: m.seq } : c));
          });
          break;
        }
        case 'wake.updated':
          setWakes((m) => upsertWake(m, event.payload));
          break;
        case 'alert.raised':
          setAlerts((as) => [...as.filter((a) => a.id !== event.payload.id), event.payload].slice(-MAX_ALERTS));
          break;
        case 'agent.updated':
          setAgents((as) =>
            as.some((a) => a.id === event.payload.id)
              ? as.map((a) => (a.id === event.payload.id ? event.payload : a))
              : [...as, event.payload],
          );
          break;
        case 'wake.focusRequested': {
          // The desktop app's notification was clicked: show that wake's conversation and inspector.
          const { wakeToken } = event.payload;
          void api.wakes.inspect({ wakeToken }).then((r) => {
            if (!r.ok) return;
            setWakes((m) => upsertWake(m, r.value.wake));
            setView({ kind: 'conversation', target: r.value.wake.target });
            setInspecting(wakeToken);
          });
          break;
        }
      }
    };
    const unsubscribe = api.events.subscribe(onEvent);
    void loadAll();
    const unConn = connection?.subscribe((s) => {
      setConn(s);
      if (s === 'open') void loadAll();
    });
    return () => {
      unsubscribe();
      unConn?.();
    };
  }, [api, connection, loadAll]);

  // Load the newest page of the conversation on view.
  useEffect(() => {
    if (target === null || logs.has(target)) return;
    setLogs((l) => new Map(l).set(target, emptyLog(target)));
    void api.messages.list({ target, limit: PAGE }).then((r) => {
      if (!r.ok) return setError(r.message);
      setLogs((l) =>
        new Map(l).set(target, mergeMessages(l.get(target) ?? emptyLog(target), r.value.messages, r.value.hasMore)),
      );
    });
  }, [api, target, logs]);

  const loadOlder = useCallback(() => {
    if (target === null || loadingOlder) return;
    const log = logs.get(target);
    const before = log === undefined ? undefined : olderPageCursor(log);
    if (log === undefined || !log.hasMore || before === undefined) return;
    setLoadingOlder(true);
    void api.messages.list({ target, beforeSeq: before, limit: PAGE }).then((r) => {
      setLoadingOlder(false);
      if (!r.ok) return setError(r.message);
      setLogs((l) =>
        new Map(l).set(target, mergeMessages(l.get(target) ?? emptyLog(target), r.value.messages, r.value.hasMore)),
      );
    });
  }, [api, target, logs, loadingOlder]);

  const send = useCallback(
    async (content: string): Promise<string | null> => {
      if (target === null) return null;
      const r = await api.messages.send({ target, content });
      return r.ok ? null : r.message;
    },
    [api, target],
  );

  const openConversation = useCallback(
    async (t: string): Promise<string | null> => {
      if (!conversations.some((c) => c.target === t)) {
        const r = await api.conversations.create({ target: t });
        if (!r.ok) return r.message;
        setConversations((cs) => (cs.some((c) => c.target === r.value.target) ? cs : [...cs, r.value]));
        setView({ kind: 'conversation', target: r.value.target });
        return null;
      }
      setView({ kind: 'conversation', target: t });
      return null;
    },
    [api, conversations],
  );

  const closeInspector = useCallback(() => {
    setInspecting(null);
    opener.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSwitcher((s) => !s);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const log = target === null ? undefined : logs.get(target);
  return (
    <div className={`shell${inspecting !== null ? ' with-inspector' : ''}`}>
      <Sidebar
        conversations={conversations}
        agents={agents}
        view={view}
        language={language}
        onSelect={(v) => {
          setView(v);
          setInspecting(null);
        }}
        onCreateChannel={openConversation}
      />
      <main className="main">
        {conn !== 'open' && (
          <div className="banner" role="alert">
            {copy(language, conn === 'connecting' ? 'connection.connecting' : 'connection.lost')}
          </div>
        )}
        {error !== null && (
          <div className="banner banner-error" role="alert">
            {copy(language, 'error.generic', { message: error })}
          </div>
        )}
        {view.kind === 'conversation' && (
          <ConversationView
            target={view.target}
            log={log ?? emptyLog(view.target)}
            loadingOlder={loadingOlder}
            wakes={wakes}
            alerts={alerts}
            dismissed={dismissed}
            agents={agents}
            language={language}
            onLoadOlder={loadOlder}
            onSend={send}
            onOpenWake={(token, el) => {
              opener.current = el;
              setInspecting(token);
            }}
            onDismissAlert={(id) => setDismissed((d) => new Set(d).add(id))}
            waitingWakes={waitingWakes(approvals)}
            approvalChips={
              <ApprovalChips
                api={api}
                approvals={approvals}
                wakeTargets={new Map([...wakes.values()].map((w) => [w.wakeToken, w.target]))}
                target={view.target}
                language={language}
              />
            }
          />
        )}
        {view.kind === 'agents' && (
          <AgentsPage agents={agents} language={language} onMessage={(id) => void openConversation(`dm:@${id}`)} />
        )}
        {view.kind === 'settings' && settings !== null && (
          <SettingsPage
            settings={settings}
            language={language}
            onSave={async (update) => {
              const r = await api.settings.update(update);
              if (!r.ok) return r.message;
              setSettings(r.value);
              return null;
            }}
          />
        )}
      </main>
      {inspecting !== null && (
        <Inspector
          api={api}
          wakeToken={inspecting}
          wake={wakes.get(inspecting)}
          language={language}
          onClose={closeInspector}
        />
      )}
      {switcher && (
        <Switcher
          conversations={conversations}
          language={language}
          onClose={() => setSwitcher(false)}
          onPick={(t) => {
            setSwitcher(false);
            setView({ kind: 'conversation', target: t });
          }}
        />
      )}
    </div>
  );
}
