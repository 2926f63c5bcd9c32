/**
 * Search across conversations (issue 17), in the conversation header's tools slot. Ctrl/⌘+F or
 * "/" (outside a text field) focuses it; typing searches (debounced); Esc closes it. Results name
 * the conversation, author and time, with the matched words marked: the snippet arrives as plain
 * text parts and is rendered as text inside <mark>, never as HTML. Choosing a result opens that
 * conversation (or thread) at the message. Below 600 px the open search is a full-screen sheet.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ClientApi, SearchResult } from '../../../shared/api/contract.js';
import type { AgentIdentity } from '../state/agent-store.js';
import { conversationTitle } from '../conversations/conversation-title.js';
import { copy, type Language } from '../i18n/copy.js';
import { formatDateTime, formatDay, formatTime } from '../i18n/format.js';
import './search-box.css';

export interface SearchBoxProps {
  readonly search: ClientApi['messages']['search'];
  readonly agents: readonly AgentIdentity[];
  readonly language: Language;
  onPick(result: SearchResult): void;
}

const DEBOUNCE_MS = 200;
const PAGE = 20;

type State =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'done'; results: readonly SearchResult[]; nextBefore: number | null }
  | { kind: 'failed'; message: string };

const isTextField = (el: EventTarget | null): boolean =>
  el instanceof HTMLElement && el.closest('input, textarea, select, [contenteditable="true"]') !== null;

export function SearchBox({ search, agents, language, onPick }: SearchBoxProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const asked = useRef(0);

  const close = useCallback(() => {
    setOpen(false);
    setQuery('');
    setState({ kind: 'idle' });
    const back = returnTo.current;
    returnTo.current = null;
    if (back !== null && back.isConnected) back.focus();
    else input.current?.blur();
  }, []);

  // Ctrl/⌘+F and "/" focus the search (the browser's own find is not useful in a virtualised list).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      const find = (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f';
      const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextField(e.target);
      if (!find && !slash) return;
      e.preventDefault();
      if (document.activeElement !== input.current && document.activeElement instanceof HTMLElement)
        returnTo.current = document.activeElement;
      setOpen(true);
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const run = useCallback(
    async (text: string, before?: number) => {
      const n = ++asked.current;
      if (before === undefined) setState({ kind: 'searching' });
      const r = await search({ query: text, limit: PAGE, ...(before !== undefined ? { before } : {}) });
      if (n !== asked.current) return;
      if (!r.ok) return setState({ kind: 'failed', message: r.message });
      setState((s) => ({
        kind: 'done',
        results: before !== undefined && s.kind === 'done' ? [...s.results, ...r.value.results] : r.value.results,
        nextBefore: r.value.nextBefore,
      }));
    },
    [search],
  );

  useEffect(() => {
    const text = query.trim();
    if (text === '') {
      asked.current += 1;
      setState({ kind: 'idle' });
      return;
    }
    // What is shown always answers what is typed: no stale results while the next ones load.
    asked.current += 1;
    setState({ kind: 'searching' });
    const timer = setTimeout(() => void run(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, run]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key === 'Escape') {
      // Esc belongs to the search while it is open (not to the drawer or a pane behind it).
      e.preventDefault();
      e.stopPropagation();
      e.nativeEvent.stopImmediatePropagation();
      close();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button.search-hit') ?? [])];
    if (buttons.length === 0) return;
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? Math.min(buttons.length - 1, at + 1) : at - 1;
    e.preventDefault();
    if (next < 0) input.current?.focus();
    else buttons[next]?.focus();
  };

  const pick = (r: SearchResult): void => {
    returnTo.current = null;
    setOpen(false);
    onPick(r);
  };

  const showResults = open && query.trim() !== '';
  const status =
    state.kind === 'searching'
      ? copy(language, 'search.searching')
      : state.kind === 'failed'
        ? copy(language, 'search.failed', { message: state.message })
        : state.kind === 'done'
          ? state.results.length === 0
            ? copy(language, 'search.none', { query: query.trim() })
            : state.results.length === 1
              ? copy(language, 'search.one')
              : copy(language, 'search.count', { count: state.results.length })
          : '';
  return (
    <div className={`search${showResults ? ' open' : ''}`} role="search" onKeyDown={onKeyDown}>
      <div className="search-bar">
        <span className="search-icon" aria-hidden="true">
          ⌕
        </span>
        <input
          ref={input}
          type="search"
          className="search-input"
          value={query}
          placeholder={copy(language, 'search.placeholder')}
          aria-label={copy(language, 'search.label')}
          title={copy(language, 'search.shortcut')}
          // Only while the results exist: an id that names nothing is an invalid ARIA reference.
          aria-controls={showResults ? 'search-results' : undefined}
          aria-keyshortcuts="Control+F Meta+F /"
          onFocus={() => setOpen(true)}
          onChange={(e) => {
            setQuery(e.target.value);
            setOpen(true);
          }}
        />
        {showResults && (
          <button
            type="button"
            className="icon-button search-close"
            aria-label={copy(language, 'search.close')}
            onClick={close}
          >
            ×
          </button>
        )}
      </div>
      {showResults && (
        <div id="search-results" className="search-results" aria-label={copy(language, 'search.results')} role="region">
          <p className="search-status" role="status">
            {status}
          </p>
          {state.kind === 'done' && state.results.length > 0 && (
            <ul ref={list} className="search-hits">
              {state.results.map((r) => {
                const where = conversationTitle(r.target, agents, language).title;
                const author = r.authorKind === 'operator' ? copy(language, 'messages.you') : r.authorName;
                return (
                  <li key={r.messageId}>
                    <button
                      type="button"
                      className="search-hit"
                      data-message={r.messageId}
                      data-target={r.target}
                      onClick={() => pick(r)}
                    >
                      <span className="search-hit-head">
                        <span className="search-hit-where">
                          {copy(language, 'search.by', { author, conversation: where })}
                        </span>
                        <time dateTime={r.createdAt} title={formatDateTime(r.createdAt, language)}>
                          {formatDay(r.createdAt, language, Date.now(), {
                            today: copy(language, 'messages.today'),
                            yesterday: copy(language, 'messages.yesterday'),
                          })}{' '}
                          {formatTime(r.createdAt, language)}
                        </time>
                      </span>
                      <span className="search-snippet">
                        {r.snippet.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : p.text))}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {state.kind === 'done' && state.nextBefore !== null && (
            <button type="button" className="search-more" onClick={() => void run(query.trim(), state.nextBefore!)}>
              {copy(language, 'search.more')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
