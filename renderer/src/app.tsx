/**
 * The application shell: picks the transport, hands it to the window's stores
 * (state/app-state-context.tsx), and lays out sidebar · conversation · thread · inspector (UI.md).
 * What it holds is navigation only: the view, the open thread, the inspected wake, a search
 * result to scroll to, the drawer and the switcher.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Agent, Message, SearchResult } from '../../shared/api/contract.js';
import { GENERAL_CONVERSATION } from '../../shared/config.js';
import { threadParent } from '../../shared/target.js';
import { pickTransport, type Transport } from './api/pick-transport.js';
import { AgentDetail } from './components/agent-detail.js';
import { ConversationView } from './components/conversation-view.js';
import { Inspector } from './components/inspector.js';
import { Sidebar } from './components/sidebar.js';
import { SearchBox } from './components/search-box.js';
import { Switcher } from './components/switcher.js';
import { ThreadPane } from './components/thread-pane.js';
import { copy } from './i18n/copy.js';
import { useChainWakes, useWake } from './status/wake-store.js';
import { useAgentRoster, useAgents, type AgentStore } from './state/agent-store.js';
import { useChain } from './state/chain-store.js';
import { AppStateProvider, useAppState } from './state/app-state-context.js';
import { useConversations } from './state/conversation-store.js';
import { useUnread } from './state/read-marker-store.js';
import { useLanguage } from './state/settings.js';
import { useThreadLabels } from './state/thread-store.js';
import { useValue } from './state/value-store.js';
import { pageOf, usePageBadges, type Navigation, type View } from './views/view-registry.js';

const storage = typeof localStorage === 'undefined' ? undefined : localStorage;

export function App() {
  const transport = useMemo<Transport>(() => pickTransport(), []);
  // issue 40 item 1: the URL "agentteam url" prints, pasted into a tab opened without a key, changes
  // only the fragment: load the page again so it connects with that key.
  useEffect(() => {
    if (transport.kind !== 'none') return;
    const reload = () => location.reload();
    window.addEventListener('hashchange', reload);
    return () => window.removeEventListener('hashchange', reload);
  }, [transport]);
  if (transport.kind === 'none') {
    return (
      <main className="fatal">
        <h1>AgentTeam</h1>
        <p>{copy(navigator.language.startsWith('zh') ? 'zh-CN' : 'en', 'connection.noToken')}</p>
      </main>
    );
  }
  return (
    <AppStateProvider
      api={transport.api}
      connection={transport.connection}
      authority={transport.authority}
      {...(storage ? { storage } : {})}
    >
      {/* issue 14: the OS folder picker lives in the desktop app's main process (IPC has no connection state). */}
      <Shell canChooseFolder={transport.connection === null} />
    </AppStateProvider>
  );
}

/** A search result to scroll to; a new `nonce` repeats it. */
interface FocusAt {
  readonly target: string;
  readonly seq: number;
  readonly nonce: number;
}

/**
 * issue 30: the whole agent views (state, readiness) for the views that show them; a busy/idle
 * flip — twice per wake — re-renders these, not the shell and the open conversation.
 */
function WithAgents({
  store,
  children,
}: {
  readonly store: AgentStore;
  readonly children: (agents: readonly Agent[]) => ReactNode;
}) {
  return <>{children(useAgents(store))}</>;
}

export function Shell({ canChooseFolder }: { readonly canChooseFolder: boolean }) {
  const { state, waiting } = useAppState();
  const conversations = useConversations(state.conversations);
  // issue 30: who the agents are; the views showing each agent's state read the whole views themselves (WithAgents).
  const roster = useAgentRoster(state.agents);
  const language = useLanguage(state.settings);
  const conn = useValue(state.connection);
  const authority = useValue(state.authority);
  const error = useValue(state.lastError);
  const unread = useUnread(state.readMarkers);
  const threadLabels = useThreadLabels(state.threads);
  // issue 39: the pages and their badges come from the view registry (views/view-registry.tsx).
  const badges = usePageBadges();

  const [view, setView] = useState<View>({ kind: 'conversation', target: GENERAL_CONVERSATION });
  // issue 27: a daily-budget pause's Raise budget opens the Usage view, where the budget is raised.
  const openUsage = useCallback(() => setView({ kind: 'usage' }), []);
  const [inspecting, setInspecting] = useState<string | null>(null);
  const [threadOpen, setThreadOpen] = useState<string | null>(null);
  // issue 17: a search result opened in its conversation (scroll to it).
  const [focusAt, setFocusAt] = useState<FocusAt | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [switcher, setSwitcher] = useState(false);
  const drawerOpener = useRef<HTMLElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const target = view.kind === 'conversation' ? view.target : null;
  const inspectedWake = useWake(state.wakes, inspecting);
  // issue 25: the inspected wake's chain (who woke whom).
  const chainId = inspectedWake?.chainId ?? null;
  const chainWakes = useChainWakes(state.wakes, chainId);
  const chain = useChain(state.chains, chainId);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  // The conversation on view is one the daemon lists (else the first it lists).
  useEffect(
    () =>
      state.onConversationsLoaded((listed) =>
        setView((v) =>
          v.kind === 'conversation' && !listed.some((x) => x.target === v.target) && listed[0] !== undefined
            ? { kind: 'conversation', target: listed[0].target }
            : v,
        ),
      ),
    [state],
  );
  // The desktop app's notification was clicked: show that wake's conversation and inspector.
  useEffect(
    () =>
      state.onFocusWake((wake) => {
        setView({ kind: 'conversation', target: wake.target });
        setInspecting(wake.wakeToken);
      }),
    [state],
  );
  // What is on screen is read: the viewed conversation and the open thread (issue 17: unread counts).
  useEffect(() => state.readMarkers.show([target, threadOpen]), [state, target, threadOpen]);

  const replyInThread = useCallback(
    (message: Message) => {
      void state.startThread(message.id).then((thread) => {
        if (thread === null) return;
        setInspecting(null);
        setThreadOpen(thread.target);
      });
    },
    [state],
  );

  // ---- issue 17: search → open in context ----
  const openSearchResult = useCallback(
    (r: SearchResult) => {
      const parent = threadParent(r.target);
      setView({ kind: 'conversation', target: parent ?? r.target });
      setThreadOpen(parent === null ? null : r.target);
      setInspecting(null);
      setDrawerOpen(false);
      const nonce = Date.now();
      state.messages.openAround(r.target, r.seq, () => setFocusAt({ target: r.target, seq: r.seq, nonce }));
    },
    [state],
  );
  const searchBox = useMemo(
    () => (
      <SearchBox search={state.api.messages.search} agents={roster} language={language} onPick={openSearchResult} />
    ),
    [state, roster, language, openSearchResult],
  );

  const openConversation = useCallback(
    async (t: string): Promise<string | null> => {
      const r = await state.conversations.open(t);
      if (!r.ok) return r.message;
      setView({ kind: 'conversation', target: r.value });
      return null;
    },
    [state],
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
  const navigation = useMemo<Navigation>(
    () => ({
      openAgent: (agentId) => selectView({ kind: 'agent', agentId }),
      openConversation: openInConversation,
      message: (id) => void openConversation(`dm:@${id}`),
    }),
    [selectView, openInConversation, openConversation],
  );
  const page = pageOf(view);
  const openDrawer = useCallback((el: HTMLElement) => {
    drawerOpener.current = el;
    setDrawerOpen(true);
  }, []);
  const openWake = useCallback((token: string, el: HTMLElement) => {
    opener.current = el;
    setInspecting(token);
  }, []);
  const side = inspecting !== null ? ' with-inspector' : threadOpen !== null ? ' with-pane' : '';
  return (
    <div className={`shell${side}${drawerOpen ? ' drawer-is-open' : ''}`}>
      <WithAgents store={state.agents}>
        {(agents) => (
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
            badges={badges}
            wakes={state.wakes}
          />
        )}
      </WithAgents>
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
        {conn === 'open' && authority === 'lost' && (
          // issue 40 item 1: the operator's authority was not handed over after a restart; one line says what to do.
          <div className="banner banner-error" role="alert" data-banner="not-operator">
            {copy(language, 'connection.notOperator')}
          </div>
        )}
        {error !== null && authority !== 'lost' && (
          <div className="banner banner-error" role="alert">
            {copy(language, 'error.generic', { message: error })}
          </div>
        )}
        {view.kind === 'conversation' && (
          <ConversationView
            target={view.target}
            headerTools={searchBox}
            focusSeq={focusAt?.target === view.target ? focusAt : null}
            onOpenWake={openWake}
            onReplyInThread={replyInThread}
            onOpenConversation={openInConversation}
            onOpenDrawer={openDrawer}
            onOpenUsage={openUsage}
          />
        )}
        {view.kind !== 'conversation' && (
          // Narrow screens: the way back to the conversations drawer from a page.
          <div className="page-bar">
            <button
              type="button"
              className="icon-button drawer-toggle"
              aria-label={copy(language, 'conversation.openDrawer')}
              onClick={(e) => openDrawer(e.currentTarget)}
            >
              <span aria-hidden="true">☰</span>
            </button>
          </div>
        )}
        {view.kind === 'agent' && (
          <WithAgents store={state.agents}>
            {(agents) => {
              const agent = agents.find((a) => a.id === view.agentId);
              return agent === undefined ? null : (
                <AgentDetail
                  key={agent.id}
                  api={state.api}
                  agent={agent}
                  language={language}
                  onMessage={(id) => void openConversation(`dm:@${id}`)}
                  onOpenWake={(token) => setInspecting(token)}
                  canChooseFolder={canChooseFolder}
                  usage={state.usage}
                  wakes={state.wakes}
                />
              );
            }}
          </WithAgents>
        )}
        {page !== null && <page.Page language={language} navigation={navigation} />}
      </main>
      {threadOpen !== null && view.kind === 'conversation' && (
        <ThreadPane
          target={threadOpen}
          covered={inspecting !== null}
          focusSeq={focusAt?.target === threadOpen ? focusAt : null}
          onOpenWake={openWake}
          onClose={closeThread}
        />
      )}
      {inspecting !== null && (
        <Inspector
          api={state.api}
          wakeToken={inspecting}
          wake={inspectedWake}
          agents={roster}
          language={language}
          waiting={waiting.has(inspecting)}
          onClose={closeInspector}
          onOpenWake={setInspecting}
          chainWakes={chainWakes}
          chainPaused={chain?.status === 'paused'}
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
