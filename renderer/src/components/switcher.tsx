/** Ctrl/⌘+K: switch conversation by typing (UI.md "Keyboard"). */
import { useEffect, useId, useRef, useState } from 'react';
import type { Conversation } from '../../../shared/api/contract.js';
import { matchConversations } from '../conversations/conversation-groups.js';
import { copy, type Language } from '../i18n/copy.js';

export function Switcher({
  conversations,
  language,
  onPick,
  onClose,
}: {
  conversations: readonly Conversation[];
  language: Language;
  onPick(target: string): void;
  onClose(): void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const matches = matchConversations(conversations, query).slice(0, 20);
  useEffect(() => inputRef.current?.focus(), []);
  return (
    <div className="switcher-backdrop" onMouseDown={onClose}>
      <div
        className="switcher"
        role="dialog"
        aria-modal="true"
        aria-label={copy(language, 'switcher.title')}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          ref={inputRef}
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={matches[active] === undefined ? undefined : `${listId}-${active}`}
          aria-label={copy(language, 'switcher.placeholder')}
          placeholder={copy(language, 'switcher.placeholder')}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              if (matches.length > 0)
                setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
            } else if (e.key === 'Enter') {
              const pick = matches[active];
              if (pick !== undefined) onPick(pick.target);
            }
          }}
        />
        <ul id={listId} role="listbox" aria-label={copy(language, 'switcher.title')}>
          {matches.map((c, i) => (
            <li
              key={c.target}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={() => onPick(c.target)}
            >
              {c.target}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
