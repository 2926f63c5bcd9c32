/**
 * The Telegram channel in Settings (issue 18): its health (state, bot, last error, counts in
 * and out) and its bindings; a binding can be added or, when added here, removed. The bot token
 * is never shown or entered here: it lives in an environment variable (or agentteam.json).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiResult, ClientApi } from '../../../shared/api/contract.js';
import { describeIssues } from '../../../shared/api/describe-issues.js';
import { GENERAL_CONVERSATION, TELEGRAM_CHANNEL } from '../../../shared/config.js';
import { TelegramStatusSchema, type TelegramStatus } from '../../../shared/telegram-status.js';
import { copy, type CopyKey, type Language } from '../i18n/copy.js';

export interface TelegramSettingsProps {
  /** The channels' calls (issue 39: the channel's own calls ride the contract's `channels.call`). */
  readonly api: ClientApi['channels'];
  readonly language: Language;
  /**
   * issue 40 item 9: the conversations that exist (their targets): a binding names one of them, so
   * the form never creates a conversation by a typo. Unknown (absent): the daemon decides.
   */
  readonly conversations?: readonly string[];
}

type TelegramAnswer = ApiResult<TelegramStatus>;

/**
 * The Telegram channel's calls as this form uses them: each answers the channel's status, parsed
 * with its shared schema (shared/telegram-status.ts), so an answer of another shape is an error
 * shown in the form, never a half-drawn page.
 */
function telegramCalls(api: ClientApi['channels']) {
  const call = async (name: string, args: object): Promise<TelegramAnswer> => {
    const r = await api.call({ channel: TELEGRAM_CHANNEL, call: name, args });
    if (!r.ok) return r;
    const status = TelegramStatusSchema.safeParse(r.value);
    if (status.success) return { ok: true, value: status.data };
    return { ok: false, code: 'internal', message: `telegram.${name}: ${describeIssues(status.error.issues)}` };
  };
  return {
    status: () => call('status', {}),
    addBinding: (b: { chatId: number; target: string; allowFrom: number[] }) => call('addBinding', b),
    removeBinding: (b: { chatId: number }) => call('removeBinding', b),
  };
}

type Outcome = { readonly kind: 'ok'; readonly key: CopyKey } | { readonly kind: 'error'; readonly message: string };

/** `"501, 502"` → `[501, 502]`, or null when any entry is not a whole number. */
export function parseIds(text: string): number[] | null {
  const parts = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const ids = parts.map(Number);
  return ids.length > 0 && ids.every((n) => Number.isSafeInteger(n)) ? ids : null;
}

export function TelegramSettings({ api: channels, language, conversations }: TelegramSettingsProps) {
  const api = useMemo(() => telegramCalls(channels), [channels]);
  const t = (k: CopyKey, vars?: Record<string, string | number>) => copy(language, k, vars);
  const [status, setStatus] = useState<TelegramStatus | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [chatId, setChatId] = useState('');
  const [target, setTarget] = useState(GENERAL_CONVERSATION);
  const [allowFrom, setAllowFrom] = useState('');

  const refresh = useCallback(async () => {
    const r = await api.status();
    if (r.ok) setStatus(r.value);
    else setOutcome({ kind: 'error', message: r.message });
  }, [api]);
  useEffect(() => void refresh(), [refresh]);

  const answer = (r: TelegramAnswer, key: CopyKey) => {
    if (r.ok) {
      setStatus(r.value);
      setOutcome({ kind: 'ok', key });
    } else setOutcome({ kind: 'error', message: r.message });
  };

  return (
    <section className="telegram-settings" aria-labelledby="telegram-title">
      <h2 id="telegram-title">{t('telegram.title')}</h2>
      {status !== null && (
        <div className="telegram-health" data-state={status.state}>
          <p>
            <span className={`chip chip-${status.state === 'polling' ? 'ok' : 'warn'}`}>
              {status.state === 'polling' ? '● ' : '○ '}
              {t(`telegram.state.${status.state}`)}
            </span>
            {status.bot?.username != null && <> {t('telegram.bot', { username: status.bot.username })}</>}
            <button type="button" onClick={() => void refresh()}>
              {t('telegram.refresh')}
            </button>
          </p>
          {status.detail !== null && <p className="detail">{status.detail}</p>}
          {status.lastSendError !== null && (
            // issue 40 item 9: a neutral sentence; the raw connection error (`not_written: ENOTFOUND`) under Details.
            <div className="telegram-send-error">
              <p className="detail">{t('telegram.sendFailed')}</p>
              <details>
                <summary>{t('telegram.errorDetails')}</summary>
                <pre className="detail">{status.lastSendError}</pre>
              </details>
            </div>
          )}
          {status.warning !== null && <p className="detail warning">⚠️ {status.warning}</p>}
          <p>
            {t('telegram.inbound', {
              accepted: status.inbound.accepted,
              ignored: status.inbound.ignored,
              duplicates: status.inbound.duplicates,
            })}
          </p>
          <p>
            {t('telegram.outbound', {
              delivered: status.outbound.delivered,
              failed: status.outbound.failedFinal,
              uncertain: status.outbound.uncertain,
            })}
          </p>
          <h3>{t('telegram.bindings')}</h3>
          {status.bindings.length === 0 ? (
            <p>{t('telegram.none')}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>{t('telegram.chatId')}</th>
                  <th>{t('telegram.target')}</th>
                  <th>{t('telegram.allowed')}</th>
                  <th>{t('telegram.source')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {status.bindings.map((b) => (
                  <tr key={b.chatId} data-chat={b.chatId}>
                    <td>{b.chatId}</td>
                    <td>{b.target}</td>
                    <td>{b.allowFrom.join(', ')}</td>
                    <td>{t(`telegram.source.${b.source}`)}</td>
                    <td>
                      {b.source === 'settings' && (
                        <button
                          type="button"
                          onClick={() =>
                            void api.removeBinding({ chatId: b.chatId }).then((r) => answer(r, 'telegram.removed'))
                          }
                        >
                          {t('telegram.remove')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      <form
        className="telegram-add"
        onSubmit={(e) => {
          e.preventDefault();
          const chat = Number(chatId.trim());
          const users = parseIds(allowFrom);
          if (chatId.trim() === '' || !Number.isSafeInteger(chat) || users === null) {
            setOutcome({ kind: 'error', message: t('telegram.badNumbers') });
            return;
          }
          if (conversations !== undefined && !conversations.includes(target.trim())) {
            setOutcome({ kind: 'error', message: t('telegram.noConversation', { target: target.trim() }) });
            return;
          }
          void api.addBinding({ chatId: chat, target: target.trim(), allowFrom: users }).then((r) => {
            answer(r, 'telegram.added');
            if (r.ok) setChatId('');
          });
        }}
      >
        <label className="field">
          <span>{t('telegram.chatId')}</span>
          <input inputMode="numeric" value={chatId} onChange={(e) => setChatId(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('telegram.target')}</span>
          <input value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('telegram.allowFrom')}</span>
          <input value={allowFrom} onChange={(e) => setAllowFrom(e.target.value)} />
        </label>
        <button type="submit">{t('telegram.add')}</button>
      </form>
      <p role="status" className="telegram-status">
        {outcome === null
          ? null
          : outcome.kind === 'ok'
            ? t(outcome.key)
            : t('telegram.error', { message: outcome.message })}
      </p>
    </section>
  );
}
