/** issue 25 / 30: the Team board's entry per agent, and what one refresh reads (one view, the delivery time once per wake). */
import { describe, expect, it } from 'vitest';
import type { Agent, TeamAgent } from '../../../../../shared/api/contract.js';
import { TeamBoard, type TeamBoardOptions } from '../../../../../main/daemon/teams/team-board.js';
import type { ApprovalRecord, WakeEventRecord, WakeRecord } from '../../../../../main/daemon/store/index.js';
import { wordsOf } from '../../../../fixtures/runtime-words.js';

const agent = (id: string): Agent => ({
  id,
  name: id.toUpperCase(),
  runtime: 'demo',
  runtimeWords: wordsOf('demo'),
  model: null,
  state: 'busy',
  demo: true,
});

function board() {
  const agents = [agent('a'), agent('b')];
  const rows = new Map<string, Array<{ wakeToken: string; visible: boolean; target: string; targetKey: string }>>();
  const events = new Map<string, Array<Pick<WakeEventRecord, 'status' | 'at'>>>();
  const pending = new Map<string, ApprovalRecord[]>();
  const reads = { views: 0, view: 0, events: 0 };
  const announced: TeamAgent[] = [];
  const o: TeamBoardOptions = {
    agents: () => {
      reads.views++;
      return agents;
    },
    agent: (id) => {
      reads.view++;
      return agents.find((a) => a.id === id);
    },
    lifecycle: { pending: (id: string) => rows.get(id) ?? [] } as unknown as TeamBoardOptions['lifecycle'],
    store: {
      getWake: (token: string) =>
        ({ wakeToken: token, target: '#general', createdAt: '2026-12-03T10:00:00.000Z' }) as WakeRecord,
      listWakeEvents: (token: string) => {
        reads.events++;
        return (events.get(token) ?? []) as WakeEventRecord[];
      },
    },
    pendingApprovals: (id) => pending.get(id) ?? [],
    changed: (e) => announced.push(e),
  };
  return { b: new TeamBoard(o), rows, events, pending, reads, announced };
}

describe('TeamBoard', () => {
  it('a refresh reads one agent’s view and the wake’s delivery once, and announces only a changed entry', () => {
    const { b, rows, events, reads, announced } = board();
    rows.set('a', [{ wakeToken: 'w1', visible: true, target: '#general', targetKey: '#general' }]);
    b.refresh('a');
    // Not delivered yet: since the wake's creation; read again next time.
    expect(announced.at(-1)).toMatchObject({ agentId: 'a', state: 'working', since: '2026-12-03T10:00:00.000Z' });
    events.set('w1', [{ status: 'delivered', at: '2026-12-03T10:00:01.000Z' }]);
    for (let i = 0; i < 20; i++) b.refresh('a');
    expect(announced).toHaveLength(2);
    expect(announced.at(-1)).toMatchObject({ state: 'working', wakeToken: 'w1', since: '2026-12-03T10:00:01.000Z' });
    expect(reads.events).toBe(2);
    expect(reads.views).toBe(0);
    expect(reads.view).toBe(21);
    // The next wake is read again.
    rows.set('a', [{ wakeToken: 'w2', visible: true, target: '#dev', targetKey: '#dev' }]);
    events.set('w2', [{ status: 'delivered', at: '2026-12-03T10:00:05.000Z' }]);
    b.refresh('a');
    expect(announced.at(-1)).toMatchObject({ wakeToken: 'w2', since: '2026-12-03T10:00:05.000Z' });
    rows.set('a', []);
    b.refresh('a');
    expect(announced.at(-1)).toMatchObject({ state: 'idle', wakeToken: null });
    b.refresh('nobody');
    expect(announced).toHaveLength(4);
  });

  it('waiting for the operator’s oldest pending approval comes before working', () => {
    const { b, rows, pending } = board();
    rows.set('b', [{ wakeToken: 'w1', visible: true, target: '#general', targetKey: '#general' }]);
    const approval = (id: string, createdAt: string) =>
      ({ id, agentId: 'b', wakeTokens: ['w1'], createdAt, status: 'pending' }) as unknown as ApprovalRecord;
    pending.set('b', [approval('ap_old', '2026-12-03T10:00:00.000Z'), approval('ap_new', '2026-12-03T10:01:00.000Z')]);
    expect(b.board().find((e) => e.agentId === 'b')).toMatchObject({
      state: 'waiting_approval',
      approvalId: 'ap_old',
      target: '#general',
      since: '2026-12-03T10:00:00.000Z',
    });
  });
});
