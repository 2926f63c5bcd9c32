/**
 * The delivery channels by config name (`channels.<name>`): one routing for the delivery tracker
 * (a request naming a channel, a kept reply re-delivered on the channel that failed it) and the
 * beacon router. Whether a channel takes the daemon's silence beacons is said once, per channel:
 * Telegram does not, it runs its own watchdog on its bound turns (channels/telegram/telegram-turns.ts).
 */
import { LOCAL_CHANNEL } from '../../../shared/config.js';
import type { Channel } from './channel.js';

export interface ChannelRoute {
  readonly channel: Channel;
  /** Whether the daemon's silence watchdog posts its beacons on this channel. */
  readonly daemonBeacons: boolean;
  /** Whether this channel delivers the conversation's replies (a chat bound to it); absent: only when named. */
  readonly delivers?: (target: string) => boolean;
}

export class ChannelRoutes {
  readonly #routes = new Map<string, ChannelRoute>();

  /** Registers `route.channel` under its name (a channel built later, e.g. Telegram's, is added then). */
  add(route: ChannelRoute): void {
    this.#routes.set(route.channel.name, route);
  }

  /** The channel registered under `name`. */
  readonly named = (name: string): Channel | undefined => this.#routes.get(name)?.channel;

  /**
   * issue 24: the channel a conversation's replies are delivered on — the first route that delivers
   * it (a chat bound to the conversation), else the local channel. One answer for every channel
   * plug-in, so the communication service never asks a channel by name.
   */
  readonly deliveryChannelOf = (target: string): string => {
    for (const route of this.#routes.values()) if (route.delivers?.(target) === true) return route.channel.name;
    return LOCAL_CHANNEL;
  };

  /** The channel under `name` if it takes the daemon's beacons. */
  readonly beaconChannelNamed = (name: string): Channel | undefined => {
    const route = this.#routes.get(name);
    return route?.daemonBeacons === true ? route.channel : undefined;
  };
}
