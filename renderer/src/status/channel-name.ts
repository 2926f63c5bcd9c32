/**
 * A delivery channel's name as a person reads it (issue 40 item 7: a failure names where it did not
 * arrive): `local` is this app, another channel its config name capitalised (`telegram` → Telegram).
 */
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import { copy, type Language } from '../i18n/copy.js';

export function channelName(channel: string, language: Language): string {
  return channel === LOCAL_CHANNEL
    ? copy(language, 'settings.channel.local')
    : channel.charAt(0).toUpperCase() + channel.slice(1);
}
