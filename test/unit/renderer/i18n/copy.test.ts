import { describe, expect, it } from 'vitest';
import { COPY_KEYS, COPY_TABLES, LANGUAGES, copy, copyTables } from '../../../../renderer/src/i18n/copy.js';

/** English that is deliberately empty (the text that follows is already plain English). */
const EMPTY_IN_ENGLISH: ReadonlySet<string> = new Set(['agentSettings.invalidLead']);

describe('UI copy', () => {
  it('has every key in both languages, with the same placeholders', () => {
    for (const key of COPY_KEYS) {
      const en = copyTables.en[key];
      const zh = copyTables['zh-CN'][key];
      expect(zh, key).toBeTruthy();
      expect([...zh.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), key).toEqual(
        [...en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(),
      );
    }
  });

  it('fills placeholders', () => {
    expect(copy('en', 'composer.placeholder', { target: '#general' })).toBe('Message #general — @ to mention');
    expect(copy('zh-CN', 'composer.placeholder', { target: '#general' })).toBe('发送到 #general — 输入 @ 提及');
  });

  it('offers no visible-reply toggle or wording that the contract can be switched off (contract §7.3)', () => {
    for (const table of Object.values(copyTables)) {
      for (const text of Object.values(table))
        expect(text).not.toMatch(/visible.?reply|force (a )?reply|可见回复|强制回复/i);
    }
  });
});

describe('the one translator over namespaced tables (issue 23)', () => {
  it('has distinct namespaces, each key inside its own', () => {
    const namespaces = COPY_TABLES.map((t) => t.namespace);
    expect(new Set(namespaces).size).toBe(namespaces.length);
    for (const table of COPY_TABLES) {
      expect(table.namespace, table.namespace).toMatch(/^[a-zA-Z]+$/);
      for (const key of Object.keys(table.en)) expect(key.startsWith(`${table.namespace}.`), key).toBe(true);
    }
    // No key is defined twice: the merged table has every key of every table.
    expect(COPY_KEYS.length).toBe(COPY_TABLES.reduce((n, t) => n + Object.keys(t.en).length, 0));
  });

  it('gives every table the same keys in every language, none empty', () => {
    for (const table of COPY_TABLES) {
      const keys = Object.keys(table.en).sort();
      for (const language of LANGUAGES) {
        expect(Object.keys(table[language]).sort(), `${table.namespace} ${language}`).toEqual(keys);
        for (const [key, text] of Object.entries(table[language]))
          if (!(language === 'en' && EMPTY_IN_ENGLISH.has(key))) expect(text, `${language} ${key}`).not.toBe('');
      }
    }
  });

  it('looks up every namespace through copy(), and leaves an unfilled placeholder as it is', () => {
    expect(copy('en', 'chip.queued')).toBe('Queued');
    expect(copy('zh-CN', 'search.count', { count: 3 })).toBe('3 条结果');
    expect(copy('en', 'settings.invalid.range', { min: 0, max: 10 })).toBe('Enter a value from 0 to 10.');
    expect(copy('en', 'approvals.allowedScope')).toBe('Allowed · {scope}');
    // A value is inserted as it is, never read as a placeholder itself.
    expect(copy('en', 'agentSettings.revokeLabel', { rule: 'Bash({rule})' })).toBe('Revoke Bash({rule})');
  });

  it('rejects a key no table has at typecheck', () => {
    // @ts-expect-error — not a key of any table (tsc -p tsconfig.json fails if this line compiles)
    expect(() => copy('en', 'chip.nope')).toThrow();
  });
});
