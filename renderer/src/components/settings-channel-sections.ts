/**
 * Channel-specific sections of the Settings page (issue 17 leaves the place; issue 18's Telegram
 * helper fills it). A delivery channel listed here gets its own section under the shared watchdog
 * and delivery fieldsets when it is the selected delivery channel; a channel not listed gets only
 * the shared ones. Register with one line: `telegram: TelegramSettingsSection`.
 */
import type { ComponentType } from 'react';
import type { Settings } from '../../../shared/api/contract.js';
import type { Language } from '../i18n/copy.js';

export interface ChannelSectionProps {
  /** The delivery channel's key in agentteam.json `channels` (e.g. `telegram`). */
  readonly channel: string;
  readonly language: Language;
  /** What the daemon reports: values in effect, their origins, the config file and its error. */
  readonly settings: Settings;
}

export const CHANNEL_SECTIONS: Readonly<Record<string, ComponentType<ChannelSectionProps>>> = {};
