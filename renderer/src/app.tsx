/**
 * The application shell: picks the transport, holds what the daemon told it (conversations,
 * messages per conversation, wakes, alerts, agents, settings), keeps it current from events,
 * and lays out sidebar · conversation · inspector (UI.md).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type {
  Agent,
  Alert,
  ApiEvent,
  ClientApi,
  Conversation,
  Message,
  SearchResult,
  Settings,
  ThreadSummary,
} from '../../shared/api/contract.js';
import { parseTarget } from '../../shared/target.js';
import { pickTransport, type Transport } from './api/pick-transport.js';
import type { ConnectionState } from './api/ws-client.js';
import { AgentsPage } from './components/agents-page.js';
import { AgentDetail } from './components/agent-detail.js';
import { ConversationView } from './components/conversation-view.js';
import { Inspector } from './components/inspector.js';
import { SettingsView } from './components/settings-view.js';
import { Sidebar, type View } from './components/sidebar.js';
import { SearchBox } from './components/search-box.js';
import { Switcher } from './components/switcher.js';
import { ThreadPane } from './components/thread-pane.js';
import { emptyLog, mergeMessages, olderPageCursor, type MessageLog } from './conversations/message-log.js';
import {
  adoptConversations,
  loadReadMarkers,
  markRead,
  saveReadMarkers,
  unreadCount,
  type ReadMarkers,
} from './conversations/read-markers.js';
import { copy, type Language } from './i18n/copy.js';
import { useWake, WakeBook } from './status/wake-store.js';
import { useLastSeqBatch } from './conversations/last-seq-batch.js';
import { ApprovalChips, usePendingApprovals, waitingWakes } from './status/approval-chip.js';

const PAGE = 200;
const MAX_ALERTS = 50;
const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

/** The parent of a thread target, or null when the target is not a thread. */
function threadParent(target: string): string | null {
  const parsed = parseTarget(target);
  return parsed.ok && parsed.target.thread !== null ? target.slice(0, target.lastIndexOf(':')) : null;
}

/** A thread's label in the sidebar: the start of its root message. */
function threadLabel(t: ThreadSummary): string | null {
  const text = t.root?.content.replace(/\s+/g, ' ').trim() ?? '';
  return text === '' ? null : text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

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
  // issue 19: wakes live outside React state; each status area subscribes to its own conversation's.
  const [wakes] = useState(() => new WakeBook());
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [logs, setLogs] = useState<ReadonlyMap<string, MessageLog>>(new Map());
  const [loadingOlder, setLoadingOlder] = useState(false);
  // issue 17: a search result opened in its conversation (scroll to it), and forward paging.
  const [focusAt, setFocusAt] = useState<{ target: string; seq: number; nonce: number } | null>(null);
  const loadingNewer = useRef(false);
  const [view, setView] = useState<View>({ kind: 'conversation', target: '#general' });
  const [inspecting, setInspecting] = useState<string | null>(null);
  const [threadOpen, setThreadOpen] = useState<string | null>(null);
  const [threads, setThreads] = useState<ReadonlyMap<string, readonly ThreadSummary[]>>(new Map());
  const [readMarkers, setReadMarkers] = useState<ReadMarkers>(() => loadReadMarkers(storage));
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerOpener = useRef<HTMLElement | null>(null);
  const [switcher, setSwitcher] = useState(false);
  const [conn, setConn] = useState<ConnectionState>(connection?.get() ?? 'open');
  const [error, setError] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // issue 14: approvals waiting for the operator (status/approval-chip.tsx).
  const approvals = usePendingApprovals(api);
  const language: Language = settings?.language ?? 'en';
  const waiting = useMemo(() => waitingWakes(approvals), [approvals]);
  const target = view.kind === 'conversation' ? view.target : null;

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const refreshThreads = useCallback(
    async (parent: string) => {
      const r = await api.threads.list({ parent });
      if (r.ok) setThreads((m) => new Map(m).set(parent, r.value));
    },
    [api],
  );

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
    if (w.ok) wakes.applyAll(w.value);
    const failed = [c, a, s, w].find((r) => !r.ok);
    setError(failed !== undefined && !failed.ok ? failed.message : null);
    // Messages may have been missed while disconnected: drop cached logs, refetch on view.
    setLogs(new Map());
  }, [api, wakes]);

  // issue 19: many agents at work send a message.stored a few times a second per conversation;
  // their lastSeq (sidebar unread counts) is applied once per frame, not once per message.
  const bumpLastSeq = useLastSeqBatch(setConversations);

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
          // A message in a conversation we do not list yet (a new DM or thread): refetch the list.
          bumpLastSeq(
            m.target,
            m.seq,
            () => void api.conversations.list({}).then((r) => r.ok && setConversations(r.value)),
          );
          // A reply in a thread changes its parent's reply counts.
          const parent = threadParent(m.target);
          if (parent !== null) void refreshThreads(parent);
          break;
        }
        case 'wake.updated':
          wakes.apply(event.payload);
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
        case 'settings.changed':
          // agentteam.json changed on disk, or its edit could not be used (issue 17).
          setSettings(event.payload);
          break;
        case 'wake.focusRequested': {
          // The desktop app's notification was clicked: show that wake's conversation and inspector.
          const { wakeToken } = event.payload;
          void api.wakes.inspect({ wakeToken }).then((r) => {
            if (!r.ok) return;
            wakes.apply(r.value.wake);
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
  }, [api, connection, loadAll, refreshThreads, wakes, bumpLastSeq]);

  // Load the newest page of each conversation on view (the main one and an open thread).
  useEffect(() => {
    for (const t of [target, threadOpen]) {
      if (t === null || logs.has(t)) continue;
      setLogs((l) => new Map(l).set(t, emptyLog(t)));
      void api.messages.list({ target: t, limit: PAGE }).then((r) => {
        if (!r.ok) return setError(r.message);
        setLogs((l) => new Map(l).set(t, mergeMessages(l.get(t) ?? emptyLog(t), r.value.messages, r.value.hasMore)));
      });
    }
  }, [api, target, threadOpen, logs]);

  // Threads of the viewed conversation (reply counts), and of every parent with threads (sidebar labels).
  const parents = useMemo(
    () => [...new Set(conversations.flatMap((c) => (c.kind === 'thread' && c.parent !== null ? [c.parent] : [])))],
    [conversations],
  );
  useEffect(() => {
    const wanted = new Set(parents);
    if (target !== null && threadParent(target) === null) wanted.add(target);
    for (const p of wanted) if (!threads.has(p)) void refreshThreads(p);
  }, [parents, target, threads, refreshThreads]);

  // What is on screen is read: the viewed conversation and the open thread (issue 17: unread counts).
  // A conversation listed for the first time starts read up to where it is.
  useEffect(() => {
    setReadMarkers((m) =>
      conversations
        .filter((c) => c.target === target || c.target === threadOpen)
        .reduce((acc, c) => markRead(acc, c.target, c.lastSeq), adoptConversations(m, conversations)),
    );
  }, [conversations, target, threadOpen]);
  useEffect(() => saveReadMarkers(storage, readMarkers), [readMarkers]);

  const loadOlderOf = useCallback(
    (t: string | null) => {
      if (t === null || loadingOlder) return;
      const log = logs.get(t);
      const before = log === undefined ? undefined : olderPageCursor(log);
      if (log === undefined || !log.hasMore || before === undefined) return;
      setLoadingOlder(true);
      void api.messages.list({ target: t, beforeSeq: before, limit: PAGE }).then((r) => {
        setLoadingOlder(false);
        if (!r.ok) return setError(r.message);
        setLogs((l) => new Map(l).set(t, mergeMessages(l.get(t) ?? emptyLog(t), r.value.messages, r.value.hasMore)));
      });
    },
    [api, logs, loadingOlder],
  );
  const loadOlder = useCallback(() => loadOlderOf(target), [loadOlderOf, target]);
  const loadOlderThread = useCallback(() => loadOlderOf(threadOpen), [loadOlderOf, threadOpen]);

  const sendTo = useCallback(
    async (t: string | null, content: string): Promise<string | null> => {
      if (t === null) return null;
      const r = await api.messages.send({ target: t, content });
      return r.ok ? null : r.message;
    },
    [api],
  );
  const sendThread = useCallback((content: string) => sendTo(threadOpen, content), [sendTo, threadOpen]);

  const replyInThread = useCallback(
    (message: Message) => {
      void api.threads.start({ messageId: message.id }).then((r) => {
        if (!r.ok) return setError(copy(language, 'thread.startFailed', { message: r.message }));
        setThreads((m) => {
          const list = m.get(r.value.parent) ?? [];
          return new Map(m).set(r.value.parent, [...list.filter((x) => x.target !== r.value.target), r.value]);
        });
        setInspecting(null);
        setThreadOpen(r.value.target);
      });
    },
    [api, language],
  );

  const send = useCallback((content: string) => sendTo(target, content), [sendTo, target]);

  // ---- issue 17: search → open in context ----
  const loadNewerOf = useCallback(
    (t: string | null) => {
      const log = t === null ? undefined : logs.get(t);
      const last = log?.messages[log.messages.length - 1];
      if (t === null || log?.hasNewer !== true || last === undefined || loadingNewer.current) return;
      loadingNewer.current = true;
      void api.messages.list({ target: t, afterSeq: last.seq, limit: PAGE }).then((r) => {
        loadingNewer.current = false;
        if (!r.ok) return setError(r.message);
        setLogs((l) =>
          new Map(l).set(
            t,
            mergeMessages(l.get(t) ?? emptyLog(t), r.value.messages, undefined, r.value.hasNewer ?? false),
          ),
        );
      });
    },
    [api, logs],
  );
  const loadLatestOf = useCallback(
    (t: string | null) => {
      if (t === null) return;
      void api.messages.list({ target: t, limit: PAGE }).then((r) => {
        if (!r.ok) return setError(r.message);
        setLogs((l) => new Map(l).set(t, mergeMessages(emptyLog(t), r.value.messages, r.value.hasMore, false)));
      });
    },
    [api],
  );
  const openSearchResult = useCallback(
    (r: SearchResult) => {
      const parent = threadParent(r.target);
      setView({ kind: 'conversation', target: parent ?? r.target });
      setThreadOpen(parent === null ? null : r.target);
      setInspecting(null);
      setDrawerOpen(false);
      const nonce = Date.now();
      if (logs.get(r.target)?.messages.some((m) => m.seq === r.seq) === true) {
        setFocusAt({ target: r.target, seq: r.seq, nonce });
        return;
      }
      // Not held: load the page around it (held first as empty so the newest page is not fetched too).
      setLogs((l) => new Map(l).set(r.target, emptyLog(r.target)));
      void api.messages.list({ target: r.target, aroundSeq: r.seq, limit: PAGE }).then((page) => {
        if (!page.ok) return setError(page.message);
        setLogs((l) =>
          new Map(l).set(
            r.target,
            mergeMessages(emptyLog(r.target), page.value.messages, page.value.hasMore, page.value.hasNewer ?? false),
          ),
        );
        setFocusAt({ target: r.target, seq: r.seq, nonce });
      });
    },
    [api, logs],
  );
  const loadNewer = useCallback(() => loadNewerOf(target), [loadNewerOf, target]);
  const loadLatest = useCallback(() => loadLatestOf(target), [loadLatestOf, target]);
  const loadNewerThread = useCallback(() => loadNewerOf(threadOpen), [loadNewerOf, threadOpen]);
  const loadLatestThread = useCallback(() => loadLatestOf(threadOpen), [loadLatestOf, threadOpen]);
  const searchBox = useMemo(
    () => <SearchBox search={api.messages.search} agents={agents} language={language} onPick={openSearchResult} />,
    [api, agents, language, openSearchResult],
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

  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    drawerOpener.current?.focus();
  }, []);
  const closeThread = useCallback(() => setThreadOpen(null), []);
  // The drawer takes focus when it opens (keyboard and screen-reader users land in it).
  useEffect(() => {
    if (drawerOpen) document.querySelector<HTMLElement>('#sidebar button')?.focus();
  }, [drawerOpen]);

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
      if (e.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const log = target === null ? undefined : logs.get(target);
  const inspectedWake = useWake(wakes, inspecting);
  const unread = useCallback((c: Conversation) => unreadCount(readMarkers, c), [readMarkers]);
  const selectView = useCallback((v: View) => {
    setView(v);
    setInspecting(null);
    setThreadOpen(null);
    setDrawerOpen(false);
  }, []);
  const openInConversation = useCallback((t: string) => {
    setThreadOpen(null);
    setView({ kind: 'conversation', target: t });
  }, []);
  const openDrawer = useCallback((el: HTMLElement) => {
    drawerOpener.current = el;
    setDrawerOpen(true);
  }, []);
  const openWake = useCallback((token: string, el: HTMLElement) => {
    opener.current = el;
    setInspecting(token);
  }, []);
  /**
   * The approval chips of one status area: the conversation's, or the open thread's (issue 14).
   * Memoised elements, so the memoised views below do not re-render for nothing (issue 19).
   */
  const approvalChipsOf = useCallback(
    (chipTarget: string | null) =>
      chipTarget === null ? null : (
        <ApprovalChips
          api={api}
          approvals={approvals}
          wakes={wakes}
          target={chipTarget}
          language={language}
          onOpenWake={openWake}
        />
      ),
    [api, approvals, wakes, language, openWake],
  );
  const conversationChips = useMemo(() => approvalChipsOf(target), [approvalChipsOf, target]);
  const threadChips = useMemo(() => approvalChipsOf(threadOpen), [approvalChipsOf, threadOpen]);
  const dismissAlert = useCallback((id: string) => setDismissed((d) => new Set(d).add(id)), []);
  const threadsByRoot = useMemo(() => {
    const list = target === null ? [] : (threads.get(target) ?? []);
    return new Map(list.flatMap((t) => (t.root === null ? [] : [[t.root.id, t] as const])));
  }, [threads, target]);
  const threadLabels = useMemo(
    () =>
      new Map(
        [...threads.values()].flat().flatMap((t) => {
          const label = threadLabel(t);
          return label === null ? [] : [[t.target, label] as const];
        }),
      ),
    [threads],
  );
  const openThreadSummary =
    threadOpen === null
      ? undefined
      : (threads.get(threadParent(threadOpen) ?? '') ?? []).find((t) => t.target === threadOpen);
  const side = inspecting !== null ? ' with-inspector' : threadOpen !== null ? ' with-pane' : '';
  return (
    <div className={`shell${side}${drawerOpen ? ' drawer-is-open' : ''}`}>
      <Sidebar
        conversations={conversations}
        agents={agents}
        view={view}
        language={language}
        unread={unread}
        threadLabels={threadLabels}
        drawerOpen={drawerOpen}
        onSelect={selectView}
        onCreateChannel={openConversation}
      />
      {drawerOpen && (
        <button
          type="button"
          className="drawer-backdrop"
          aria-label={copy(language, 'conversation.closeDrawer')}
          onClick={closeDrawer}
        />
      )}
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
            threads={threadsByRoot}
            onLoadOlder={loadOlder}
            headerTools={searchBox}
            focusSeq={focusAt?.target === view.target ? focusAt : null}
            onLoadNewer={loadNewer}
            onLoadLatest={loadLatest}
            onSend={send}
            onOpenWake={openWake}
            onDismissAlert={dismissAlert}
            onReplyInThread={replyInThread}
            onOpenConversation={openInConversation}
            onOpenDrawer={openDrawer}
            waitingWakes={waiting}
            approvalChips={conversationChips}
          />
        )}
        {view.kind !== 'conversation' && (
          // Narrow screens: the way back to the conversations drawer from a page.
          <div className="page-bar">
            <button
              type="button"
              className="icon-button drawer-toggle"
              aria-label={copy(language, 'conversation.openDrawer')}
              onClick={(e) => {
                drawerOpener.current = e.currentTarget;
                setDrawerOpen(true);
              }}
            >
              <span aria-hidden="true">☰</span>
            </button>
          </div>
        )}
        {view.kind === 'agent' &&
          (() => {
            const agent = agents.find((a) => a.id === view.agentId);
            return agent === undefined ? null : (
              <AgentDetail
                key={agent.id}
                api={api}
                agent={agent}
                language={language}
                onMessage={(id) => void openConversation(`dm:@${id}`)}
                onOpenWake={(token) => setInspecting(token)}
                // issue 14: the OS folder picker lives in the desktop app's main process (IPC has no connection state).
                canChooseFolder={connection === null}
              />
            );
          })()}
        {view.kind === 'agents' && (
          <AgentsPage agents={agents} language={language} onMessage={(id) => void openConversation(`dm:@${id}`)} />
        )}
        {view.kind === 'settings' && settings !== null && (
          <SettingsView
            settings={settings}
            language={language}
            telegram={api.telegram}
            onSave={async (update) => {
              const r = await api.settings.update(update);
              if (!r.ok) return r.message;
              setSettings(r.value);
              return null;
            }}
          />
        )}
      </main>
      {threadOpen !== null && view.kind === 'conversation' && (
        <ThreadPane
          target={threadOpen}
          summary={openThreadSummary}
          log={logs.get(threadOpen) ?? emptyLog(threadOpen)}
          loadingOlder={loadingOlder}
          wakes={wakes}
          alerts={alerts}
          dismissed={dismissed}
          agents={agents}
          language={language}
          covered={inspecting !== null}
          onLoadOlder={loadOlderThread}
          focusSeq={focusAt?.target === threadOpen ? focusAt : null}
          onLoadNewer={loadNewerThread}
          onLoadLatest={loadLatestThread}
          onSend={sendThread}
          onOpenWake={openWake}
          onDismissAlert={dismissAlert}
          onClose={closeThread}
          waitingWakes={waiting}
          approvalChips={threadChips}
        />
      )}
      {inspecting !== null && (
        <Inspector
          api={api}
          wakeToken={inspecting}
          wake={inspectedWake}
          agents={agents}
          language={language}
          waiting={waiting.has(inspecting)}
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
