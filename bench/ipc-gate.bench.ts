/**
 * `npm run bench -- ipc-gate`: what the IPC gate's zod checks (main/daemon/api/api-gate.ts) cost per
 * call, against calling the same daemon handler raw in the same run. value = gate calls/s as
 * packaged (request parsed; the answer is not re-parsed), baseline = raw handler calls/s,
 * ratio = value/baseline (higher is better; 1 = free). `devChecks` also parses every answer
 * (unpackaged runs and tests). Measured for a typical `wakes.list` answer (50 wakes) — the largest answer
 * the status area polls — and a small `messages.send`.
 * Electron's own `invoke` round trip is ~66–84 µs (research/reliability-perf.md §5), so the gate
 * matters only if its cost approaches that.
 */
import { answerCall } from '../main/daemon/api/api-gate.js';
import type { ApiHandlers, Wake } from '../shared/api/contract.js';
import type { Figure } from './bench-kit.js';

const wake = (i: number): Wake => ({
  wakeToken: `w_${i}`,
  messageId: `m_${i}`,
  agentId: 'claude',
  agentName: 'Claude',
  agentTechnicalName: 'claude',
  runtime: 'claude-code',
  model: null,
  target: '#general',
  status: i % 3 === 0 ? 'reply_sent' : 'delivered',
  reason: null,
  detail: null,
  beacons: i % 5,
  escalated: false,
  lastBeaconAt: null,
  finalCheck: false,
  createdAt: '2026-11-30T07:00:00.000Z',
  endedAt: null,
  recoveries: 0,
});
const wakes = Array.from({ length: 50 }, (_, i) => wake(i));
const handlers = {
  'wakes.list': async () => wakes,
  'messages.send': async (req: { target: string }) => ({ messageId: 'm_1', seq: 1, target: req.target }),
} as unknown as ApiHandlers;
const silent = { debugEnabled: false, info() {}, warn() {}, error() {}, debug() {} };

async function rate(fn: () => Promise<unknown>, ms: number): Promise<number> {
  for (let i = 0; i < 2_000; i++) await fn(); // warm-up (JIT)
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 500; i++) await fn();
    n += 500;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

export default async function (args: string[]) {
  // --quick (or BENCH_QUICK=1): small sizes, the CI smoke run (issue 19).
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const pos = args.filter((a) => !a.startsWith('--'));
  const ms = Number(pos[0] ?? (quick ? 100 : 400));
  const listReq = { target: '#general', activeOnly: false, limit: 100 };
  const sendReq = { target: '#general', content: 'hello @claude, can you check the logs?' };
  const rawList = await rate(() => handlers['wakes.list'](listReq), ms);
  const packaged = { checkResponse: false };
  const dev = { checkResponse: true };
  const gateList = await rate(() => answerCall(handlers, 'wakes.list', listReq, silent, packaged), ms);
  const devList = await rate(() => answerCall(handlers, 'wakes.list', listReq, silent, dev), ms);
  const rawSend = await rate(() => handlers['messages.send'](sendReq), ms);
  const gateSend = await rate(() => answerCall(handlers, 'messages.send', sendReq, silent, packaged), ms);
  const devSend = await rate(() => answerCall(handlers, 'messages.send', sendReq, silent, dev), ms);
  const overhead = (gate: number, raw: number) => Number((1e6 / gate - 1e6 / raw).toFixed(2));
  // The gate matters only as its cost approaches Electron's own invoke round trip (~66 µs).
  const gateFigure = (call: string, gate: number, raw: number, dev: number): Figure => ({
    name: `${call} through the gate (as packaged) vs the raw handler`,
    value: Math.round(gate),
    unit: 'calls/s',
    baseline: Math.round(raw),
    ratio: Number((gate / raw).toFixed(4)),
    goal: 'overhead < 66 µs per call (Electron invoke round trip)',
    met: overhead(gate, raw) < 66,
    note: `overhead ${overhead(gate, raw)} µs per call; with dev checks (answers parsed too) ${overhead(dev, raw)} µs`,
  });
  return {
    value: Math.round(gateList),
    baseline: Math.round(rawList),
    ratio: Number((gateList / rawList).toFixed(4)),
    unit: 'calls/s (wakes.list, 50 wakes)',
    overheadMicrosPerCall: { 'wakes.list': overhead(gateList, rawList), 'messages.send': overhead(gateSend, rawSend) },
    devChecks: {
      overheadMicrosPerCall: { 'wakes.list': overhead(devList, rawList), 'messages.send': overhead(devSend, rawSend) },
    },
    send: {
      value: Math.round(gateSend),
      baseline: Math.round(rawSend),
      ratio: Number((gateSend / rawSend).toFixed(4)),
    },
    figures: [
      gateFigure('wakes.list (50 wakes)', gateList, rawList, devList),
      gateFigure('messages.send', gateSend, rawSend, devSend),
    ],
  };
}
