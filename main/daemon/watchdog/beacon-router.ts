/**
 * Where a beacon goes (DESIGN.md "Beyond the specs"): every beacon and the escalation become a
 * status update on the wake chips of the turn (UI.md: "🧠 Working… {elapsed}"); never a chat
 * message on the local conversation. A channel whose `beaconSurface` is `message` additionally
 * gets it posted as a channel message through delivery confirmation, with purpose `beacon`, so
 * it never counts as the turn's response, never resets the watchdog and never settles a wake.
 */
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Channel } from '../delivery/channel.js';
import type { SendOutcome, SendRequest } from '../delivery/delivery-tracker.js';
import type { Beacon, BeaconKind } from './silence-beacons.js';
import { formatElapsed as formatElapsedIn } from '../../../shared/elapsed.js';

export interface BeaconStatus {
  readonly turnId: string;
  readonly agentId: string;
  readonly channel: string;
  readonly wakeTokens: readonly string[];
  readonly kind: BeaconKind;
  readonly index: number;
  readonly elapsedMs: number;
  /** English status text; the UI renders its own language from `kind` and `elapsedMs`. */
  readonly text: string;
}

export interface BeaconRouterOptions {
  readonly beacon$: Observable<Beacon>;
  /** The channel behind a config channel name, if one is registered. */
  readonly channelNamed: (channel: string) => Channel | undefined;
  readonly send: (request: SendRequest) => Promise<SendOutcome>;
}

/** The beacon text's elapsed time, in English (the UI renders its own language); defined in shared/elapsed.ts. */
export const formatElapsed = (ms: number): string => formatElapsedIn(ms, 'en');

export function beaconText(beacon: Beacon): string {
  return beacon.kind === 'beacon' ? `${beacon.message} ${formatElapsed(beacon.elapsedMs)}` : beacon.message;
}

export class BeaconRouter {
  private readonly statuses = new Subject<BeaconStatus>();
  private readonly subscription: Subscription;
  /** Status-surface updates (wake chips, inspector timeline). */
  readonly status$: Observable<BeaconStatus> = this.statuses.asObservable();

  constructor(options: BeaconRouterOptions) {
    this.subscription = options.beacon$.subscribe((beacon) => {
      const text = beaconText(beacon);
      this.statuses.next({
        turnId: beacon.turnId,
        agentId: beacon.agentId,
        channel: beacon.channel,
        wakeTokens: beacon.wakeTokens,
        kind: beacon.kind,
        index: beacon.index,
        elapsedMs: beacon.elapsedMs,
        text,
      });
      const channel = options.channelNamed(beacon.channel);
      if (channel?.beaconSurface === 'message' && beacon.target !== null) {
        // A deterministic response_id: the same beacon can never be posted twice.
        void options.send({
          turnId: beacon.turnId,
          agentId: beacon.agentId,
          target: beacon.target,
          content: text,
          purpose: 'beacon',
          responseId: `beacon:${beacon.turnId}:${beacon.index}`,
        });
      }
    });
  }

  stop(): void {
    this.subscription.unsubscribe();
    this.statuses.complete();
  }
}
