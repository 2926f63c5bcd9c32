import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../../../main/daemon/delivery/channel.js';
import { ChannelRoutes } from '../../../../../main/daemon/delivery/channel-routes.js';

const channel = (name: string): Channel => ({
  name,
  idempotent: true,
  beaconSurface: 'message',
  send: () => Promise.reject(new Error('not sent in this test')),
});

describe('ChannelRoutes: one routing for delivery and beacons', () => {
  it('routes by config name; the daemon beacons only the channels that take them', () => {
    const local = channel('local');
    const telegram = channel('telegram');
    const routes = new ChannelRoutes();
    routes.add({ channel: local, daemonBeacons: true });
    // Not yet built: nothing is routed to it.
    expect(routes.named('telegram')).toBeUndefined();
    routes.add({ channel: telegram, daemonBeacons: false });
    expect(routes.named('local')).toBe(local);
    expect(routes.named('telegram')).toBe(telegram);
    expect(routes.named('slack')).toBeUndefined();
    expect(routes.beaconChannelNamed('local')).toBe(local);
    // Telegram runs its own watchdog on its bound turns.
    expect(routes.beaconChannelNamed('telegram')).toBeUndefined();
    expect(routes.beaconChannelNamed('slack')).toBeUndefined();
  });
});
