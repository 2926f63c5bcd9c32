import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../../../shared/api/contract.js';
import { Alerts } from '../../../../../main/daemon/alerts/alerts.js';
import type { BeaconStatus } from '../../../../../main/daemon/watchdog/beacon-router.js';

function setup() {
  const raised: Alert[] = [];
  const onTimeline: Array<string | null> = [];
  const alerts = new Alerts({
    timeline: { alert: (a) => onTimeline.push(a.wakeToken) },
    raised: (a) => raised.push(a),
  });
  return { alerts, raised, onTimeline };
}

const beacon = (over: Partial<BeaconStatus>): BeaconStatus =>
  ({
    turnId: 't',
    agentId: 'a',
    channel: 'local',
    wakeTokens: ['w1'],
    kind: 'beacon',
    index: 1,
    elapsedMs: 1,
    text: 'x',
    ...over,
  }) as BeaconStatus;

describe('alerts (the one place an Alert is built)', () => {
  it('a delivery alert keeps its id and time, goes on its wake timeline first, then is raised', () => {
    const s = setup();
    s.alerts.delivery({
      id: 'd1',
      kind: 'delivery_failed',
      turnId: 't',
      agentId: 'a',
      channel: 'local',
      target: '#general',
      wakeToken: 'w1',
      responseId: 'r1',
      message: 'not delivered',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(s.onTimeline).toEqual(['w1']);
    expect(s.raised).toEqual([
      {
        id: 'd1',
        kind: 'delivery_failed',
        target: '#general',
        wakeToken: 'w1',
        responseId: 'r1',
        message: 'not delivered',
        // issue 40 item 7: a delivery alert names its channel.
        channel: 'local',
        at: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('only an escalation beacon is raised, on the first marked wake (else the first carried one), with an al_ id', () => {
    const s = setup();
    s.alerts.beacon(beacon({ kind: 'beacon' }), ['w1']);
    expect(s.raised).toEqual([]);
    s.alerts.beacon(beacon({ kind: 'escalation', text: 'silent' }), ['w2']);
    s.alerts.beacon(beacon({ kind: 'escalation', text: 'silent' }), []);
    s.alerts.beacon(beacon({ kind: 'escalation', text: 'silent', wakeTokens: [] }), []);
    expect(s.raised.map((a) => [a.kind, a.wakeToken, a.message])).toEqual([
      ['escalation', 'w2', 'silent'],
      ['escalation', 'w1', 'silent'],
      ['escalation', null, 'silent'],
    ]);
    expect(s.raised.every((a) => /^al_/.test(a.id) && !Number.isNaN(Date.parse(a.at)))).toBe(true);
    expect(s.onTimeline).toEqual([]);
  });

  it("issue 24: an alert about an agent carries its display name, and every raised alert is a log line (serve's only notice besides the browser)", () => {
    const raised: Alert[] = [];
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const log = {
      debugEnabled: false,
      info: (m: string, f?: Record<string, unknown>) => void lines.push([m, f]),
      warn() {},
      error() {},
      debug() {},
    };
    const alerts = new Alerts({
      timeline: { alert: () => undefined },
      raised: (a) => raised.push(a),
      agentName: (id) => (id === 'a' ? 'Claude' : id),
      log,
    });
    alerts.delivery({
      id: 'n1',
      kind: 'no_response',
      turnId: 't',
      agentId: 'a',
      channel: 'local',
      target: '#general',
      wakeToken: 'w1',
      responseId: null,
      message: 'Turn ended without a message — back to idle',
      at: '2026-01-01T00:00:00.000Z',
    });
    alerts.beacon(beacon({ kind: 'escalation', text: 'silent' }), ['w2']);
    expect(raised.map((a) => [a.kind, a.agentName])).toEqual([
      ['no_response', 'Claude'],
      ['escalation', 'Claude'],
    ]);
    expect(lines).toEqual([
      [
        'alert raised',
        {
          kind: 'no_response',
          target: '#general',
          wakeToken: 'w1',
          agent: 'Claude',
          message: 'Turn ended without a message — back to idle',
        },
      ],
      ['alert raised', expect.objectContaining({ kind: 'escalation', wakeToken: 'w2', agent: 'Claude' })],
    ]);
  });

  it('a runtime that stays down is a runtime_crashed alert naming the agent', () => {
    const s = setup();
    s.alerts.runtimeDown('Claude', 'spawn ENOENT');
    expect(s.raised).toMatchObject([
      { kind: 'runtime_crashed', wakeToken: null, message: 'Claude stopped: spawn ENOENT' },
    ]);
  });
});
