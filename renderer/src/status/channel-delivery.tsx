/**
 * issue 40 item 7 (watchdog spec B): the inspector's delivery of a wake's reply per channel — this
 * app, Telegram, … — each with its status, the attempts made and the last error (the raw code, as
 * text), read from the wake's timeline. Nothing when no reply was delivered anywhere yet.
 */
import type { WakeEvent } from '../../../shared/api/contract.js';
import { deliveryByChannel } from '../../../shared/delivery-detail.js';
import { copy, type Language } from '../i18n/copy.js';
import { channelName } from './channel-name.js';

export function ChannelDelivery({
  events,
  language,
}: {
  readonly events: readonly WakeEvent[];
  readonly language: Language;
}) {
  const channels = deliveryByChannel(events.filter((e) => e.kind === 'delivery').map((e) => e.detail));
  if (channels.length === 0) return null;
  return (
    <section className="channel-delivery" aria-labelledby="channel-delivery-title">
      <h3 id="channel-delivery-title">{copy(language, 'inspector.delivery')}</h3>
      <ul>
        {channels.map((c) => (
          <li key={c.channel} data-channel={c.channel} data-state={c.state}>
            <span className="channel-delivery-name">{channelName(c.channel, language)}</span>
            <span className="chip-sep" aria-hidden="true">
              ·
            </span>
            <span className="channel-delivery-state">{copy(language, `inspector.delivery.${c.state}`)}</span>
            <span className="chip-sep" aria-hidden="true">
              ·
            </span>
            <span className="channel-delivery-attempts">
              {c.attempts === 1
                ? copy(language, 'inspector.delivery.attemptsOne')
                : copy(language, 'inspector.delivery.attempts', { count: c.attempts })}
            </span>
            {c.lastError !== null && (
              <span className="channel-delivery-error">
                {copy(language, 'inspector.delivery.lastError')}: <code>{c.lastError}</code>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
