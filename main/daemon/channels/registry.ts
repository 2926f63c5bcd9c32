/**
 * The registered channels (issue 39 "Plug-ins"): one line per channel. The root builds them all
 * with `createChannels` and talks to the result only, so a new channel is its folder, its line
 * here and its settings section (shared/config.ts), never an edit of the root.
 */
import { merge, type Observable } from 'rxjs';
import { ApiError, type Alert, type ApiHandlers, type Chain } from '../../../shared/api/contract.js';
import { describeIssues } from '../../../shared/api/describe-issues.js';
import type { Config } from '../../../shared/config.js';
import type { UsageWarningFacts } from '../alerts/usage-warning-words.js';
import type { ChannelRoute } from '../delivery/channel-routes.js';
import type { Beacon } from '../watchdog/silence-beacons.js';
import type { ChannelContext, ChannelDescriptor, ChannelPlugin, ChannelTuning } from './channel-plugin.js';
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
  /** The contract's `channels.call`: every call of every channel, dispatched by channel and call name. */
  readonly api: Pick<ApiHandlers, 'channels.call'>;
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

/**
 * issue 39 "Plug-ins": the one mechanism behind every channel's own calls. `{ channel, call, args }`
 * finds the call its channel declared (an unknown one is `unknown_call`), parses `args` with the
 * call's schema (`invalid_request` as the API gate words it, prefixed `<channel>.<call>`), runs it,
 * and parses the answer with the declared schema (a channel bug is an internal error, never an
 * undeclared answer).
 */
function channelApi(plugins: readonly ChannelPlugin[]): Pick<ApiHandlers, 'channels.call'> {
  const byName = new Map(CHANNELS.map((d, i) => [d.name, plugins[i] as ChannelPlugin]));
  return {
    'channels.call': async ({ channel, call, args }) => {
      const plugin = byName.get(channel);
      if (plugin === undefined)
        throw new ApiError(
          'unknown_call',
          `"${channel}" is not a channel of AgentTeam (${[...byName.keys()].join(', ')}).`,
        );
      const declared = Object.hasOwn(plugin.calls, call) ? plugin.calls[call] : undefined;
      if (declared === undefined)
        throw new ApiError(
          'unknown_call',
          `"${call}" is not a call of the ${channel} channel (${Object.keys(plugin.calls).join(', ')}).`,
        );
      const parsed = declared.args.safeParse(args ?? {});
      if (!parsed.success)
        throw new ApiError('invalid_request', `${channel}.${call}: ${describeIssues(parsed.error.issues)}`);
      const answer = declared.answer.safeParse(await declared.handle(parsed.data));
      if (!answer.success)
        throw new Error(`${channel}.${call} answered outside its schema: ${describeIssues(answer.error.issues)}`);
      return answer.data;
    },
  };
}
