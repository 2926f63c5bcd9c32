/**
 * The composer: Enter sends, Shift+Enter is a new line, "@" opens agent completion
 * (Arrow keys move, Enter/Tab choose, Esc closes). Usable with the keyboard alone.
 *
 * issue 40 item 2: a mention that matches no agent wakes nobody, so it is named in one line under
 * the composer as soon as it is typed, and the first send of such a message is held with the
 * warning made explicit; Enter (or "Send anyway") again sends it as written — the person may mean
 * plain text. Held once rather than only shown: a person who types and presses Enter in one motion
 * never sees a passive line, and a message that silently wakes nobody costs far more than one key.
 */
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AgentIdentity } from '../state/agent-store.js';
import { byteBudget } from '../compose/byte-budget.js';
import { completeMention, matchAgents, mentionAt, unknownMentions, type MentionQuery } from '../compose/mention.js';
import { copy, type Language } from '../i18n/copy.js';

export interface ComposerProps {
  readonly target: string;
  readonly agents: readonly AgentIdentity[];
  readonly language: Language;
  /** The accessible name and placeholder (default: "Message {target}"); a thread pane says "Reply in thread". */
  readonly label?: string;
  readonly placeholder?: string;
  /** The daemon's `limits.maxMessageBytes` (issue 23: `limits.get`); the schema's default when not given. */
  readonly maxMessageBytes?: number;
  /** Resolves with an error message, or null when sent. */
  onSend(content: string): Promise<string | null>;
}

export function Composer({ target, agents, language, label, placeholder, maxMessageBytes, onSend }: ComposerProps) {
  const [text, setText] = useState('');
  const [mention, setMention] = useState<MentionQuery | null>(null);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const hintId = useId();
  const options = mention === null ? [] : matchAgents(agents, mention.query);
  const open = options.length > 0;
  const budget = byteBudget(text, maxMessageBytes);
  const counterId = useId();
  const warningId = useId();
  // The mention under the caret is still being typed ("@de" on its way to "@demo"): not named yet.
  const unknown = unknownMentions(text, agents, mention?.start ?? null);
  /** The text whose send was held for its unknown mentions: sending exactly it again goes through. */
  const [held, setHeld] = useState<string | null>(null);
  const isHeld = held !== null && held === text.trim() && unknown.length > 0;

  const refreshMention = (value: string, caret: number): void => {
    const m = mentionAt(value, caret);
    setMention(m);
    setActive(0);
  };

  /** Where the caret goes once a completed mention is in the DOM. */
  const pendingCaret = useRef<number | null>(null);
  // In the same commit as the new text, before the next key event is handled: a caret placed later
  // (e.g. in an animation frame, late on a busy machine) would move back over characters typed meanwhile.
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (caret === null) return;
    pendingCaret.current = null;
    ref.current?.setSelectionRange(caret, caret);
    ref.current?.focus();
  }, [text]);

  const choose = (agent: AgentIdentity): void => {
    if (mention === null) return;
    const next = completeMention(text, mention, agent.id);
    pendingCaret.current = next.caret;
    setText(next.text);
    setMention(null);
  };

  const send = async (): Promise<void> => {
    const content = text.trim();
    if (content === '' || sending || budget.over) return;
    if (held !== content && unknownMentions(content, agents).length > 0) {
      setMention(null);
      setHeld(content);
      return;
    }
    setSending(true);
    const failure = await onSend(content);
    setSending(false);
    if (failure === null) {
      setText('');
      setHeld(null);
      setError(null);
    } else setError(copy(language, 'composer.sendFailed', { message: failure }));
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return; // an IME is composing: Enter confirms the candidate
    if (open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        const agent = options[active];
        if (agent !== undefined) {
          e.preventDefault();
          choose(agent);
          return;
        }
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setMention(null);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void send();
    }
  };

  const activeId = open ? `${listId}-${active}` : undefined;
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {open && (
        <ul id={listId} role="listbox" className="mention-list" aria-label={copy(language, 'composer.mentions')}>
          {options.map((agent, i) => (
            <li
              key={agent.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'mention-option active' : 'mention-option'}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(agent);
              }}
            >
              <span className="mention-id">@{agent.id}</span> <span className="mention-name">{agent.name}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="composer-row">
        <textarea
          ref={ref}
          className="composer-input"
          rows={1}
          value={text}
          placeholder={placeholder ?? copy(language, 'composer.placeholder', { target })}
          aria-label={label ?? copy(language, 'composer.label', { target })}
          aria-describedby={[hintId, budget.show ? counterId : '', unknown.length > 0 ? warningId : '']
            .filter((id) => id !== '')
            .join(' ')}
          aria-invalid={budget.over ? true : undefined}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={activeId}
          onChange={(e) => {
            setText(e.target.value);
            refreshMention(e.target.value, e.target.selectionStart);
          }}
          onSelect={(e) => refreshMention(e.currentTarget.value, e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => setMention(null)}
        />
        <button type="submit" className="composer-send" disabled={sending || text.trim() === '' || budget.over}>
          {copy(language, isHeld ? 'composer.sendAnyway' : 'composer.send')}
        </button>
      </div>
      <div className="composer-foot">
        <div id={hintId} className="composer-hint">
          {copy(language, 'composer.hint')}
        </div>
        {budget.show && (
          <div
            id={counterId}
            className={`byte-counter${budget.over ? ' over' : ''}`}
            data-bytes={budget.bytes}
            role={budget.over ? 'alert' : undefined}
          >
            {copy(language, budget.over ? 'composer.tooLong' : 'composer.bytes', {
              used: budget.usedKb,
              limit: budget.limitKb,
            })}
          </div>
        )}
      </div>
      {/* Polite and always present, so a screen reader hears the warning appear and the hold. */}
      <div id={warningId} className="composer-warning" aria-live="polite">
        {unknown.length > 0 && warningText(language, unknown, agents, isHeld)}
      </div>
      {error !== null && (
        <div className="composer-error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

/** The one line naming the mentions that match no agent, and, once a send was held, how to send anyway. */
function warningText(
  language: Language,
  unknown: readonly string[],
  agents: readonly AgentIdentity[],
  held: boolean,
): string {
  const list = (ids: readonly string[]) => ids.map((id) => `@${id}`).join(copy(language, 'composer.listSeparator'));
  const warning = copy(language, unknown.length === 1 ? 'composer.unknownMention' : 'composer.unknownMentions', {
    mentions: list(unknown),
    agents: agents.length === 0 ? copy(language, 'composer.noAgents') : list(agents.map((a) => a.id)),
  });
  return held ? copy(language, 'composer.held', { warning }) : warning;
}
