/**
 * Settings: the UI language and, per channel, the silence watchdog and reply delivery
 * confirmation (keys and defaults of the watchdog spec). There is deliberately no
 * visible-reply toggle: the contract is always on (contract §7.3).
 */
import { useEffect, useState } from 'react';
import type { ClientApi, Settings } from '../../../shared/api/contract.js';
import type { ChannelSettings } from '../../../shared/config.js';
import { copy, LANGUAGES, type CopyKey, type Language } from '../i18n/copy.js';
import { TelegramSettings } from './telegram-settings.js';

export interface SettingsPageProps {
  readonly settings: Settings;
  readonly language: Language;
  /** Resolves with an error message, or null when saved. */
  onSave(update: { language?: Language; channel?: string; settings?: ChannelSettings }): Promise<string | null>;
  /** The Telegram channel's calls (issue 18); its section is shown when given. */
  readonly telegram?: ClientApi['telegram'];
}

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', 'zh-CN': '简体中文' };

export function SettingsPage({ settings, language, onSave, telegram }: SettingsPageProps) {
  const channels = Object.keys(settings.channels).sort();
  const [channel, setChannel] = useState(channels[0] ?? 'local');
  const [draft, setDraft] = useState<ChannelSettings | undefined>(settings.channels[channel]);
  // The outcome, not its words: rendered in the current language, so switching to 简体中文
  // does not leave an English "Saved" behind.
  const [outcome, setOutcome] = useState<{ failure: string | null } | null>(null);
  useEffect(() => setDraft(settings.channels[channel]), [settings, channel]);
  const t = (k: CopyKey, vars?: Record<string, string>) => copy(language, k, vars);

  const num = (value: string, fallback: number): number =>
    value.trim() === '' || Number.isNaN(Number(value)) ? fallback : Number(value);
  const setWatchdog = (patch: Partial<ChannelSettings['silenceWatchdog']>) =>
    draft && setDraft({ ...draft, silenceWatchdog: { ...draft.silenceWatchdog, ...patch } });
  const setDelivery = (patch: Partial<ChannelSettings['responseDelivery']>) =>
    draft && setDraft({ ...draft, responseDelivery: { ...draft.responseDelivery, ...patch } });

  return (
    <section className="page settings" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>
      <div className="field">
        <label htmlFor="settings-language">{t('settings.language')}</label>
        <select
          id="settings-language"
          value={language}
          onChange={(e) => {
            void onSave({ language: e.target.value as Language }).then((failure) => setOutcome({ failure }));
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="settings-channel">{t('settings.channel')}</label>
        <select id="settings-channel" value={channel} onChange={(e) => setChannel(e.target.value)}>
          {channels.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      {draft !== undefined && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void onSave({ channel, settings: draft }).then((failure) => setOutcome({ failure }));
          }}
        >
          <fieldset>
            <legend>{t('settings.watchdog')}</legend>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.silenceWatchdog.enabled}
                onChange={(e) => setWatchdog({ enabled: e.target.checked })}
              />{' '}
              {t('settings.watchdog.enabled')}
            </label>
            <label className="field">
              <span>{t('settings.watchdog.threshold')}</span>
              <input
                type="number"
                min={1}
                max={86400}
                value={draft.silenceWatchdog.thresholdSeconds}
                onChange={(e) => setWatchdog({ thresholdSeconds: num(e.target.value, 45) })}
              />
            </label>
            <label className="field">
              <span>{t('settings.watchdog.maxBeacons')}</span>
              <input
                type="number"
                min={0}
                max={100}
                value={draft.silenceWatchdog.maxBeacons}
                onChange={(e) => setWatchdog({ maxBeacons: num(e.target.value, 5) })}
              />
            </label>
          </fieldset>
          <fieldset>
            <legend>{t('settings.delivery')}</legend>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.responseDelivery.enabled}
                onChange={(e) => setDelivery({ enabled: e.target.checked })}
              />{' '}
              {t('settings.delivery.enabled')}
            </label>
            <label className="field">
              <span>{t('settings.delivery.retryCount')}</span>
              <input
                type="number"
                min={0}
                max={10}
                value={draft.responseDelivery.retryCount}
                onChange={(e) => setDelivery({ retryCount: num(e.target.value, 1) })}
              />
            </label>
            <label className="field">
              <span>{t('settings.delivery.retryDelayMs')}</span>
              <input
                type="number"
                min={0}
                max={600000}
                step={100}
                value={draft.responseDelivery.retryDelayMs}
                onChange={(e) => setDelivery({ retryDelayMs: num(e.target.value, 3000) })}
              />
            </label>
            {(['alertOnFailure', 'alertOnNoResponse', 'preserveUndelivered'] as const).map((key) => (
              <label key={key} className="check">
                <input
                  type="checkbox"
                  checked={draft.responseDelivery[key]}
                  onChange={(e) => setDelivery({ [key]: e.target.checked })}
                />{' '}
                {t(`settings.delivery.${key}`)}
              </label>
            ))}
          </fieldset>
          <button type="submit">{t('settings.save')}</button>
        </form>
      )}
      <p role="status" className="settings-status">
        {outcome === null
          ? null
          : outcome.failure === null
            ? t('settings.saved')
            : t('settings.error', { message: outcome.failure })}
      </p>
      {telegram !== undefined && <TelegramSettings api={telegram} language={language} />}
    </section>
  );
}
