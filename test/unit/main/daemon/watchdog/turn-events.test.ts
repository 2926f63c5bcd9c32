/** The watchdog's input: the three hooks addressed to live turns only (turn-events.ts). */
import { describe, expect, it } from 'vitest';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { turnEvents, type TurnEvent } from '../../../../../main/daemon/watchdog/turn-events.js';

const delivered = (turnId: string | undefined, agentId = 'claude', channel = 'local') => ({
  ...(turnId === undefined ? {} : { turnId }),
  agentId,
  channel,
  target: '#general',
  messageId: 'm',
  kind: 'message' as const,
});

describe('turnEvents', () => {
  it('addresses deliveries to live turns: by id, or to every live turn of the agent on the channel', () => {
    const bus = new HookBus();
    const seen: Array<[string, string]> = [];
    let completed = false;
    turnEvents(bus).subscribe({
      next: (e: TurnEvent) => seen.push([e.hook, e.turnId]),
      complete: () => (completed = true),
    });
    bus.emit('message.delivered', delivered('t1')); // not started yet: dropped
    bus.emit('turn.start', { turnId: 't1', agentId: 'claude', channel: 'local', wakeTokens: [] });
    bus.emit('turn.start', { turnId: 't1', agentId: 'claude', channel: 'local', wakeTokens: [] }); // repeated: dropped
    bus.emit('turn.start', { turnId: 't2', agentId: 'claude', channel: 'local', wakeTokens: [] });
    bus.emit('turn.start', { turnId: 't3', agentId: 'codex', channel: 'local', wakeTokens: [] });
    bus.emit('message.delivered', delivered('t2'));
    bus.emit('message.delivered', delivered(undefined));
    bus.emit('message.delivered', delivered(undefined, 'claude', 'telegram'));
    bus.emit('turn.end', { turnId: 't1' });
    bus.emit('turn.end', { turnId: 't1' }); // stale: dropped
    bus.emit('message.delivered', delivered('t1')); // late, after its turn ended: dropped
    bus.emit('message.delivered', delivered(undefined));
    expect(seen).toEqual([
      ['turn.start', 't1'],
      ['turn.start', 't2'],
      ['turn.start', 't3'],
      ['message.delivered', 't2'],
      ['message.delivered', 't1'],
      ['message.delivered', 't2'],
      ['turn.end', 't1'],
      ['message.delivered', 't2'],
    ]);
    expect(completed).toBe(false);
    bus.complete();
    expect(completed).toBe(true);
  });
});
