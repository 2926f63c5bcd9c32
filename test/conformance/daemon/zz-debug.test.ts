import { it } from 'vitest';
import { DaemonHarness, hexSecretMarker } from '../../fixtures/daemon-harness.js';
import { RUNTIME_CASES } from '../runtimes/runtime-cases.js';
const kind = (process.env.DBG_KIND ?? 'claude-code') as any;
it('debug', async () => {
  const h = await DaemonHarness.start(kind, { watchdogThresholdSeconds: 1 });
  await h.ready(60000);
  for (const c of RUNTIME_CASES) {
    await h.idle(20000);
    const { wakeToken } = await h.send(c.target, hexSecretMarker(c.text));
    const w = await h.terminal(wakeToken, 30000).catch((e) => ({ status: String(e) }));
    const ins = await h.api['wakes.inspect']({ wakeToken });
    console.log('CASE', c.target, (w as any).status, JSON.stringify(ins.events.map((e) => [e.kind, e.status, e.reason, e.detail?.slice(0, 80)])), ins.wake.beacons);
  }
  for (const e of h.events) if (e.name === 'alert.raised' || e.name === 'agent.updated') console.log('EV', JSON.stringify(e).slice(0, 300));
  for (const l of h.logLines) if (l.level !== 'debug') console.log('LOG', l.level, l.message, JSON.stringify(l.fields).slice(0, 200));
  console.log('METRICS', (await h.daemon.metrics.metrics()).split('\n').filter((l) => /^(wake|beacon|delivery|silence|response)/.test(l)).join('\n'));
  await h.dispose();
}, 200000);
