/**
 * Settings (issue 17). One save model for every field: edits stay local, each changed field is
 * marked, and one explicit Save applies them (Discard drops them). Chosen over autosave because a
 * save rewrites agentteam.json, the file a person also edits by hand: writing it per keystroke
 * would race their editor and fill it with half-typed numbers.
 *
 * - Delivery settings come from agentteam.json through the daemon; each shows where its value
 *   comes from (the file, or the default). Save writes only the changed keys into the file and
 *   says so ("Saved to agentteam.json"). An edit of the file on disk shows up here (the daemon's
 *   `settings.changed`); fields the person is editing keep their draft.
 * - An edit of the file that cannot be used is shown with the daemon's own message (file, JSON
 *   path, expected); the last valid settings stay in effect.
 * - Validation is inline, next to the field, in the page's language; the browser's bubble is off.
 * - "Delivery channel" (where replies go: local app, Telegram…) is never called just "channel",
 *   which is what the sidebar calls a conversation.
 * - There is deliberately no visible-reply toggle: the contract is always on (contract §7.3).
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ClientApi, ConfigStatus, Conversation, Settings } from '../../../shared/api/contract.js';
import type { ChannelSettings, PromptLanguage } from '../../../shared/config.js';
import { copy, LANGUAGES, type CopyKey, type Language } from '../i18n/copy.js';
import { channelName } from '../status/channel-name.js';
import { CHANNEL_SECTIONS } from './settings-channel-sections.js';
import { FIELDS, SECTIONS, numberProblem, type Field, type NumberProblem, type Section } from './settings-fields.js';
import { TelegramSettings } from './telegram-settings.js';
import './settings-view.css';

export interface SettingsUpdate {
  readonly language?: PromptLanguage;
  readonly channel?: string;
  readonly settings?: ChannelSettings;
}

export interface SettingsViewProps {
  readonly settings: Settings;
  readonly language: Language;
  /** Applies one `settings.update`; resolves with an error message, or null when saved. */
  onSave(update: SettingsUpdate): Promise<string | null>;
  /**
   * The channels' own calls (issue 18; issue 39: `channels.call`), for the Telegram section: its
   * health and bindings are shown whether or not the channel is configured yet (the section says
   * how to configure it), outside the save model — a binding is added or removed at once.
   */
  readonly channels?: ClientApi['channels'];
  /** issue 40 item 9: the conversations that exist; a binding names one of them. */
  readonly conversations?: readonly Conversation[];
}

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文' };
const LANGUAGE_KEY = 'language';

/** A draft value: text for numbers (so a half-typed "1." survives), a boolean for checkboxes. */
type Draft = string | boolean;
const fieldKey = (channel: string, section: Section, key: string) => `${channel}/${section}.${key}`;

function savedValue(settings: Settings, channel: string, section: Section, key: string): Draft {
  const value = (settings.channels[channel]?.[section] as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'boolean' ? value : String(value ?? '');
}

type Outcome = { kind: 'saved'; toFile: boolean } | { kind: 'failed'; message: string } | { kind: 'invalid' };

export function SettingsView({ settings, language, onSave, channels: channelCalls, conversations }: SettingsViewProps) {
  const t = (k: CopyKey, vars?: Record<string, string | number>) => copy(language, k, vars);
  const channels = Object.keys(settings.channels);
  const [channel, setChannel] = useState(channels[0] ?? 'local');
  const [edits, setEdits] = useState<ReadonlyMap<string, Draft>>(new Map());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [saving, setSaving] = useState(false);
  const [dismissedNotices, setDismissedNotices] = useState(false);
  const ids = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const config: ConfigStatus | undefined = settings.config;

  const saved = (key: string): Draft => {
    if (key === LANGUAGE_KEY) return settings.language;
    const [ch = '', path = ''] = key.split('/');
    const [section, field = ''] = path.split('.') as [Section, string];
    return savedValue(settings, ch, section, field);
  };
  const value = (key: string): Draft => edits.get(key) ?? saved(key);
  // Dirty against what is in effect now: an edit the file on disk caught up with is no longer a change.
  const dirtyKeys = [...edits.keys()].filter((k) => edits.get(k) !== saved(k));
  const isDirty = (key: string) => dirtyKeys.includes(key);

  const problems = useMemo(() => {
    const out = new Map<string, NumberProblem>();
    for (const [key, draft] of edits) {
      if (typeof draft !== 'string' || key === LANGUAGE_KEY) continue;
      const [, path = ''] = key.split('/');
      const [section, field = ''] = path.split('.') as [Section, string];
      const spec = FIELDS[section].find((f) => f.key === field);
      if (spec?.kind !== 'number') continue;
      const problem = numberProblem(draft, section, field, spec.rule);
      if (problem !== null) out.set(key, problem);
    }
    return out;
  }, [edits]);

  const edit = (key: string, draft: Draft) => {
    setOutcome(null);
    setEdits((m) => new Map(m).set(key, draft));
  };

  // Unsaved edits are not lost silently when the window reloads or closes.
  const anyDirty = dirtyKeys.length > 0;
  useEffect(() => {
    if (!anyDirty) return undefined;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyDirty]);

  const channelDraft = (ch: string): ChannelSettings | null => {
    const base = settings.channels[ch];
    if (base === undefined) return null;
    const next = { silenceWatchdog: { ...base.silenceWatchdog }, responseDelivery: { ...base.responseDelivery } };
    for (const section of SECTIONS)
      for (const f of FIELDS[section]) {
        const k = fieldKey(ch, section, f.key);
        if (!isDirty(k)) continue;
        const v = edits.get(k);
        (next[section] as Record<string, unknown>)[f.key] = f.kind === 'bool' ? v : Number(v);
      }
    return next;
  };

  const save = async () => {
    if (problems.size > 0) {
      setOutcome({ kind: 'invalid' });
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setSaving(true);
    let toFile = false;
    let failure: string | null = null;
    const done = new Set<string>();
    const dirtyChannels = new Set(dirtyKeys.filter((k) => k !== LANGUAGE_KEY).map((k) => k.split('/')[0] ?? ''));
    for (const ch of dirtyChannels) {
      const next = channelDraft(ch);
      if (next === null) continue;
      failure = await onSave({ channel: ch, settings: next });
      if (failure !== null) break;
      toFile = true;
      for (const k of dirtyKeys) if (k.startsWith(`${ch}/`)) done.add(k);
    }
    if (failure === null && isDirty(LANGUAGE_KEY)) {
      failure = await onSave({ language: value(LANGUAGE_KEY) as PromptLanguage });
      if (failure === null) done.add(LANGUAGE_KEY);
    }
    setEdits((m) => new Map([...m].filter(([k]) => !done.has(k))));
    setSaving(false);
    setOutcome(failure === null ? { kind: 'saved', toFile } : { kind: 'failed', message: failure });
  };

  const originTag = (ch: string, section: Section, key: string, id: string) => {
    const origin = config?.origins[ch]?.[`${section}.${key}`];
    if (origin === undefined) return null;
    const text = t(origin === 'file' ? 'settings.origin.file' : 'settings.origin.default');
    return (
      <span id={id} className={`sv-origin sv-origin-${origin}`}>
        <span className="sv-visually-hidden">{t('settings.origin.label', { origin: '' })}</span>
        {text}
      </span>
    );
  };
  const changedMark = (key: string) =>
    isDirty(key) ? (
      <span className="sv-changed">
        <span aria-hidden="true">● </span>
        {t('settings.changed')}
      </span>
    ) : null;

  const renderField = (section: Section, f: Field) => {
    const key = fieldKey(channel, section, f.key);
    const id = `${ids}-${section}-${f.key}`;
    const label = t(f.label);
    const originId = `${id}-origin`;
    const errorId = `${id}-error`;
    if (f.kind === 'bool') {
      return (
        <div key={key} className="sv-row sv-row-check" data-field={`${section}.${f.key}`} data-dirty={isDirty(key)}>
          <input
            id={id}
            type="checkbox"
            checked={value(key) === true}
            aria-describedby={originId}
            onChange={(e) => edit(key, e.target.checked)}
          />
          <label htmlFor={id}>{label}</label>
          <span className="sv-meta">
            {changedMark(key)}
            {originTag(channel, section, f.key, originId)}
          </span>
        </div>
      );
    }
    const problem = problems.get(key);
    return (
      <div key={key} className="sv-row" data-field={`${section}.${f.key}`} data-dirty={isDirty(key)}>
        <label htmlFor={id}>{label}</label>
        <span className="sv-control">
          <input
            id={id}
            type="text"
            inputMode={f.rule.integer ? 'numeric' : 'decimal'}
            autoComplete="off"
            value={String(value(key))}
            aria-invalid={problem !== undefined}
            aria-describedby={problem !== undefined ? `${errorId} ${originId}` : originId}
            onChange={(e) => edit(key, e.target.value)}
          />
          {changedMark(key)}
          {originTag(channel, section, f.key, originId)}
        </span>
        {problem !== undefined && (
          <p id={errorId} className="sv-error">
            <span aria-hidden="true">⚠ </span>
            {t(problem.key, problem.vars)}
          </p>
        )}
      </div>
    );
  };

  const channelLabel = (c: string) => channelName(c, language);
  const ChannelSection = CHANNEL_SECTIONS[channel];
  const notices = dismissedNotices ? [] : (config?.notices ?? []);
  const restart = config?.restartNeeded ?? [];

  return (
    <section className="page settings-view" aria-labelledby={`${ids}-title`}>
      <form
        ref={formRef}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h1 id={`${ids}-title`}>{t('settings.title')}</h1>

        {config?.error != null && (
          <div className="sv-callout sv-callout-error" role="alert" data-config-error={config.error.code}>
            <p className="sv-callout-title">
              <span aria-hidden="true">⚠ </span>
              {t('settings.configError.title')}
            </p>
            <pre className="sv-pre">{config.error.message}</pre>
            <p>{t('settings.configError.body')}</p>
          </div>
        )}
        {restart.length > 0 && (
          <p className="sv-callout" data-restart-needed={restart.join(',')}>
            <span aria-hidden="true">↻ </span>
            {t('settings.restart', {
              sections: restart
                .map((s) => (s === 'agents' || s === 'limits' ? t(`settings.restart.${s}`) : s))
                .join(t('settings.restart.separator')),
            })}
          </p>
        )}
        {notices.length > 0 && (
          <div className="sv-callout" data-legacy-notices={notices.length}>
            <p className="sv-callout-title">{t('settings.legacy.title')}</p>
            <p>{t('settings.legacy.body')}</p>
            <ul>
              {notices.map((n) => (
                <li key={n.path}>
                  <code>
                    {n.kind === 'migrated'
                      ? t('settings.legacy.migrated', { path: n.path, value: JSON.stringify(n.value) })
                      : n.fileValue === undefined
                        ? t('settings.legacy.ignoredChannel', { path: n.path })
                        : t('settings.legacy.ignored', {
                            path: n.path,
                            value: JSON.stringify(n.value),
                            fileValue: JSON.stringify(n.fileValue),
                          })}
                  </code>
                </li>
              ))}
            </ul>
            <button type="button" onClick={() => setDismissedNotices(true)}>
              {t('settings.legacy.dismiss')}
            </button>
          </div>
        )}

        <fieldset className="sv-group">
          <legend>{t('settings.general')}</legend>
          <div className="sv-row" data-field="language" data-dirty={isDirty(LANGUAGE_KEY)}>
            <label htmlFor={`${ids}-language`}>{t('settings.language')}</label>
            <span className="sv-control">
              <select
                id={`${ids}-language`}
                value={String(value(LANGUAGE_KEY))}
                aria-describedby={`${ids}-language-hint`}
                onChange={(e) => edit(LANGUAGE_KEY, e.target.value)}
              >
                {LANGUAGES.map((l) => (
                  <option key={l} value={l} lang={l}>
                    {LANGUAGE_NAMES[l]}
                  </option>
                ))}
              </select>
              {changedMark(LANGUAGE_KEY)}
            </span>
            <p id={`${ids}-language-hint`} className="sv-hint">
              {t('settings.language.hint')}
            </p>
          </div>
        </fieldset>

        <div className="sv-source">
          <p className="sv-callout-title">{t('settings.source.title')}</p>
          <p>{t('settings.source.body')}</p>
          {config !== undefined && (
            <p>
              {t('settings.source.file')}: <code className="sv-path">{config.file}</code>
            </p>
          )}
        </div>

        <div className="sv-row sv-channel">
          <label htmlFor={`${ids}-channel`}>{t('settings.channel')}</label>
          <span className="sv-control">
            <select
              id={`${ids}-channel`}
              value={channel}
              aria-describedby={`${ids}-channel-hint`}
              onChange={(e) => setChannel(e.target.value)}
            >
              {channels.map((c) => (
                <option key={c} value={c}>
                  {channelLabel(c)}
                </option>
              ))}
            </select>
          </span>
          <p id={`${ids}-channel-hint`} className="sv-hint">
            {t('settings.channel.hint')}
          </p>
        </div>

        {settings.channels[channel] !== undefined &&
          SECTIONS.map((section) => (
            <fieldset key={section} className="sv-group" data-section={section}>
              <legend>{t(section === 'silenceWatchdog' ? 'settings.watchdog' : 'settings.delivery')}</legend>
              {FIELDS[section].map((f) => renderField(section, f))}
            </fieldset>
          ))}
        {ChannelSection !== undefined && <ChannelSection channel={channel} language={language} settings={settings} />}

        <div className="sv-actions" data-unsaved={anyDirty}>
          <p role="status" className="settings-status">
            {saving
              ? t('settings.saving')
              : outcome?.kind === 'invalid'
                ? t('settings.fixFields')
                : outcome?.kind === 'failed'
                  ? t('settings.notSaved', { message: outcome.message })
                  : anyDirty
                    ? t('settings.unsaved')
                    : outcome?.kind === 'saved'
                      ? t(outcome.toFile ? 'settings.savedToFile' : 'settings.saved')
                      : null}
          </p>
          <span className="sv-buttons">
            <button
              type="button"
              disabled={!anyDirty || saving}
              onClick={() => {
                setEdits(new Map());
                setOutcome(null);
              }}
            >
              {t('settings.discard')}
            </button>
            <button type="submit" className="sv-primary" disabled={!anyDirty || saving}>
              {t('settings.save')}
            </button>
          </span>
        </div>
      </form>
      {channelCalls !== undefined && (
        <TelegramSettings
          api={channelCalls}
          language={language}
          {...(conversations === undefined ? {} : { conversations: conversations.map((c) => c.target) })}
        />
      )}
    </section>
  );
}
