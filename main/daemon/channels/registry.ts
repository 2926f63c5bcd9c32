/**
 * The registered channels (issue 39 "Plug-ins"): one line per channel. The root builds them all
 * with `createChannels` and talks to the result only, so a new channel is its folder, its line
 * here and its settings section (shared/config.ts), never an edit of the root.
 */
import { merge, type Observable } from 'rxjs';
import { API_CALL_NAMES } from '../../../shared/api/api-names.js';
import type { Alert, Chain } from '../../../shared/api/contract.js';
import type { Config } from '../../../shared/config.js';
import type { UsageWarningFacts } from '../alerts/usage-warning-words.js';
import type { ChannelRoute } from '../delivery/channel-routes.js';
import type { Beacon } from '../watchdog/silence-beacons.js';
import type {
  ChannelApiHandlers,
  ChannelContext,
  ChannelDescriptor,
  ChannelPlugin,
  ChannelTuning,
} from './channel-plugin.js';
import { telegramChannel } from './telegram/telegram-plugin.js';

const CHANNELS: readonly ChannelDescriptor[] = [telegramChannel];

/** The channels agentteam.json configures (their section is present): the Settings page edits their settings. */
export function configuredChannels(config: Pick<Config, 'channels'>): string[] {
  return CHANNELS.filter((d) => config.channels[d.name] !== undefined).map((d) => d.name);
}

/** What the root gives every channel; each gets its own name, section and tuning besides. */
export type ChannelsContext = Omit<ChannelContext<unknown>, 'name' | 'section' | 'tuning'> & {
  readonly config: Pick<Config, 'channels'>;
  /** Timing knobs by channel name (tests). */
  readonly tuning?: Readonly<Record<string, ChannelTuning>>;
};

/** Every registered channel, built once and spoken to as one. */
export interface Channels {
  readonly routes: readonly ChannelRoute[];
  readonly beacon$: Observable<Beacon>;
  /** The calls the channels answer, every one of them (a call nobody answers is an internal error at start). */
  readonly api: ChannelApiHandlers;
  chainChanged(chain: Chain): void;
  usageWarning(agentId: string, alert: Alert, warning: UsageWarningFacts): void;
  start(): void;
  stop(): void;
}

export function createChannels(context: ChannelsContext): Channels {
  const { config, tuning, ...shared } = context;
  const plugins: ChannelPlugin[] = CHANNELS.map((d) =>
    d.create({
      ...shared,
      name: d.name,
      section: d.settingsSchema.optional().parse(config.channels[d.name]),
      tuning: tuning?.[d.name],
    }),
  );
  return {
    // A conversation bound to one of a channel's chats is delivered there (ChannelRoutes.deliveryChannelOf).
    routes: plugins.map((p) => ({ ...p.route, delivers: (target: string) => p.deliveryChannelOf(target) !== null })),
    beacon$: merge(...plugins.map((p) => p.beacon$)),
    api: channelApi(plugins),
    chainChanged: (chain) => plugins.forEach((p) => p.chainChanged(chain)),
    usageWarning: (agentId, alert, warning) => plugins.forEach((p) => p.usageWarning(agentId, alert, warning)),
    start: () => plugins.forEach((p) => p.start()),
    stop: () => [...plugins].reverse().forEach((p) => p.stop()),
  };
}

/** The channels' calls merged; every call named after a registered channel must be answered by it. */
function channelApi(plugins: readonly ChannelPlugin[]): ChannelApiHandlers {
  const merged: Partial<ChannelApiHandlers> = Object.assign({}, ...plugins.map((p) => p.api));
  for (const name of API_CALL_NAMES)
    if (CHANNELS.some((d) => name.startsWith(`${d.name}.`)) && !(name in merged))
      throw new Error(`internal: no channel answers ${name}`);
  return merged as ChannelApiHandlers;
}
