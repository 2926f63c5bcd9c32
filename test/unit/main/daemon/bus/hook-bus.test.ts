import type { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';

describe('HookBus', () => {
  it('delivers each hook only to its own stream, synchronously and in emit order', () => {
    const bus = new HookBus();
    const seen: string[] = [];
    bus.turnStart$.subscribe((e) => seen.push(`start:${e.turnId}`));
    bus.messageDelivered$.subscribe((e) => seen.push(`delivered:${e.messageId}`));
    bus.on('runtime.local').subscribe((e) => seen.push(`local:${e.kind}`));
    bus.turnEnd$.subscribe((e) => seen.push(`end:${e.turnId}`));
    bus.emit('turn.start', { turnId: 't1', agentId: 'a', channel: 'local', wakeTokens: ['w1'] });
    bus.emit('runtime.local', { turnId: 't1', kind: 'local_text', bytes: 10, runes: 9 });
    bus.emit('message.delivered', {
      turnId: 't1',
      agentId: 'a',
      channel: 'local',
      target: '#general',
      messageId: 'm1',
      kind: 'message',
    });
    expect(seen).toEqual(['start:t1', 'local:local_text', 'delivered:m1']);
    bus.emit('turn.end', { turnId: 't1' });
    expect(seen.at(-1)).toBe('end:t1');
  });

  it('complete() ends every stream; later emits reach nobody', () => {
    const bus = new HookBus();
    let completed = 0;
    let after = 0;
    for (const s of [
      bus.turnStart$,
      bus.turnEnd$,
      bus.deliveryResult$,
      bus.responseOutbound$,
      bus.messageDelivered$,
      bus.runtimeLocal$,
    ] as Observable<unknown>[])
      s.subscribe({ next: () => after++, complete: () => completed++ });
    bus.complete();
    bus.emit('turn.end', { turnId: 't1' });
    expect(completed).toBe(6);
    expect(after).toBe(0);
  });
});
