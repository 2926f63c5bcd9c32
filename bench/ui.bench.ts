/**
 * `npm run bench -- ui [--wakes N]` (issue 8): how fast a settled wake reaches the person.
 *
 * value:    p95 over N wakes (default 200) of the time from the `message_send` ACK (the wake's
 *           `endedAt`, stamped when the daemon settles the row on the ACK) to the chip's
 *           `data-status` becoming `reply_sent` in Chromium (a MutationObserver's Date.now()).
 *           Same machine clock on both sides, 1 ms resolution.
 * baseline: p95 of a bare WebSocket round trip from the same Chromium page to a `ws` echo
 *           server in this process, measured in the same run.
 * ratio:    baseline / value (higher is better; 1 means the UI path costs one bare round trip).
 * Also: `coldStartMs`, `agentteam serve` spawn to the first `/healthz` 200. Goal: p95 ≤ 50 ms.
 *
 * Runs the real `agentteam serve` (built CLI + assembled daemon) with the demo agent.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { WebSocketServer } from 'ws';
import { connectDaemon } from '../main/serve/daemon-client.js';

const ROOT = join(import.meta.dirname, '..');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export default async function uiBench(args: string[]) {
  const n = Number(args[args.indexOf('--wakes') + 1] ?? 200) || 200;
  const dataDir = await mkdtemp(join(tmpdir(), 'agentteam-bench-ui-'));
  await writeFile(join(dataDir, 'agentteam.json'), JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }], channels: { local: {} } }));

  // Cold start: spawn → URL printed → first /healthz 200.
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'agentteam.mjs'), 'serve', '--data-dir', dataDir, '--port', '0'], { cwd: ROOT, env: { ...process.env, HOME: dataDir } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`agentteam serve exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w%-]+)/.exec(line);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
  });
  const origin = new URL(url).origin;
  let health = await fetch(`${origin}/healthz`);
  while (health.status !== 200) health = await fetch(`${origin}/healthz`);
  const coldStartMs = performance.now() - t0;

  const echo = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  echo.on('connection', (ws) => ws.on('message', (data) => ws.send(data)));
  await new Promise<void>((r) => echo.once('listening', () => r()));
  const echoPort = (echo.address() as { port: number }).port;

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const connected = await connectDaemon(dataDir);
  if (!connected.ok) throw new Error(connected.message);
  const client = connected.client;
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.locator('[role="status"]').waitFor({ state: 'attached' });

    // Baseline: bare WebSocket round trips from the same page.
    const rtts = (await page.evaluate(`(async () => {
      const ws = new WebSocket('ws://127.0.0.1:${echoPort}');
      await new Promise((r) => (ws.onopen = r));
      const out = [];
      for (let i = 0; i < ${n}; i++) {
        const t = performance.now();
        await new Promise((r) => { ws.onmessage = r; ws.send('{"id":' + i + ',"ok":true,"value":null}'); });
        out.push(performance.now() - t);
      }
      ws.close();
      return out;
    })()`)) as number[];

    // Record when each chip first shows reply_sent.
    await page.evaluate(`(() => {
      window.__seen = {};
      const area = document.querySelector('[role="status"]');
      const look = () => {
        for (const el of area.querySelectorAll('[data-wake][data-status="reply_sent"]')) {
          const t = el.getAttribute('data-wake');
          if (!(t in window.__seen)) window.__seen[t] = Date.now();
        }
      };
      new MutationObserver(look).observe(area, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    })()`);

    const latencies: number[] = [];
    for (let i = 0; i < n; i++) {
      const sent = await client.call('messages.send', { target: '#general', content: `@demo bench ${i}` });
      if (!sent.ok) throw new Error(sent.message);
      const wakes = await (async () => {
        for (;;) {
          // A function, not a string: the page's CSP forbids eval (as it should).
          await page.waitForFunction((count) => Object.keys((globalThis as unknown as { __seen: object }).__seen).length > count, i);
          const r = await client.call('wakes.list', { target: '#general', limit: 1000 });
          if (!r.ok) throw new Error(r.message);
          const w = r.value.find((x) => x.messageId === sent.value.messageId);
          if (w?.endedAt != null) return w;
        }
      })();
      const seenAt = (await page.evaluate(`window.__seen[${JSON.stringify(wakes.wakeToken)}]`)) as number | undefined;
      if (seenAt === undefined || wakes.endedAt === null) throw new Error(`wake ${wakes.wakeToken} was not seen in the page`);
      latencies.push(seenAt - Date.parse(wakes.endedAt));
    }
    const value = percentile(latencies, 95);
    const baseline = percentile(rtts, 95);
    return {
      value,
      baseline,
      ratio: baseline / Math.max(value, 0.001),
      unit: 'ms',
      p50: percentile(latencies, 50),
      max: Math.max(...latencies),
      baselineP50: percentile(rtts, 50),
      wakes: n,
      coldStartMs: Math.round(coldStartMs),
      goalP95Ms: 50,
      note: `p95 ACK→chip ${value.toFixed(1)} ms vs bare WebSocket round trip p95 ${baseline.toFixed(2)} ms; goal ≤ 50 ms: ${value <= 50 ? 'met' : 'not met'}`,
    };
  } finally {
    client.close();
    await browser.close();
    echo.close();
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}
