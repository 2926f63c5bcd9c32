/**
 * `npm run bench -- many-agents [--quick] [--agents 20] [--wakes 500]` (issue 19): 20 demo
 * agents × 500 wakes each, concurrently, through the real `agentteam serve`.
 *
 * Each agent has its own channel and one closed-loop operator: send `@demoN …`, wait for the
 * wake's terminal `wake.status` push, send the next; the 20 loops run at once. Measured:
 * - every wake terminal (a count per status, and `wakes.list activeOnly` empty at the end);
 * - operator send → terminal status p50/p95 (send call issued → terminal push received);
 * - the daemon's CPU per wake: its own `process.cpuUsage()` (prom-client's
 *   process_cpu_*_seconds_total on /metrics) before and after, divided by the wakes;
 * - under that load, in Chromium with `#a0` open: ACK → chip p95 (the wake's `endedAt` → its
 *   chip showing reply_sent, as bench/ui.bench.ts measures it) against a bare WebSocket round
 *   trip from the same page sampled during the load, and long tasks (> 50 ms) on the UI's main
 *   thread (PerformanceObserver 'longtask').
 *
 * Baseline (same run, same concurrency): the demo agent's own work per wake — its MCP SDK
 * client's `message_send` call to an MCP server whose handler does nothing (no store, no wake,
 * no push), 20 clients at once. The daemon's share per wake = the daemon's p50 − that p50
 * (goal ≤ 2 ms, durable commits included), and its CPU per wake − the baseline's CPU per call.
 * `--profile DIR` writes the daemon's CPU profile (node --cpu-prof) to DIR; `--ui-profile DIR`
 * writes the page's (Chromium's CDP Profiler, the renderer's main thread) there as
 * many-agents-ui.cpuprofile (open in Chrome DevTools → Performance, or `speedscope`).
 * ACK → chip is split at the frame's arrival in the page (a second WebSocket of the same page
 * receives the same push): daemon + wire + the page's event loop before it, the renderer after.
 * Headline: value = send→terminal p50, baseline = the bare call p50, ratio = baseline / value.
 */
import { EventEmitter, once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  cpuSeconds,
  isQuick,
  launchChromium,
  machine,
  numArg,
  percentile,
  r2,
  startServe,
  traceLongTasks,
  wsClient,
  type Figure,
  rawCommitMs,
  bareAgentWork,
} from './bench-kit.js';

const TERMINAL = new Set(['reply_sent', 'failed', 'completed_without_visible_reply']);

interface WakePush {
  wakeToken: string;
  messageId: string;
  target: string;
  status: string;
  endedAt: string | null;
}

/** Rows per table in the daemon's store (read-only, beside the running daemon: WAL allows it). */
type StoreRows = Record<
  'messages' | 'wakes' | 'wake_events' | 'prompt_inputs' | 'audit' | 'undelivered' | 'final_checks',
  number
>;

function storeRows(dataDir: string): StoreRows {
  const db = new DatabaseSync(join(dataDir, 'agentteam.db'), { readOnly: true });
  try {
    const out: StoreRows = {
      messages: 0,
      wakes: 0,
      wake_events: 0,
      prompt_inputs: 0,
      audit: 0,
      undelivered: 0,
      final_checks: 0,
    };
    for (const t of Object.keys(out) as Array<keyof StoreRows>)
      if (t !== 'final_checks') out[t] = Number(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()?.n ?? 0);
    // A final-check per wake means the agent did not answer its delivery in its own turn (issue 19).
    out.final_checks = Number(
      db.prepare(`SELECT count(*) AS n FROM prompt_inputs WHERE kind = 'final_check'`).get()?.n ?? 0,
    );
    return out;
  } finally {
    db.close();
  }
}

export default async function manyAgents(args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  const agents = numArg(args, 'agents', quick ? 4 : 20);
  // --quick is the smoke run of `npm test` (issue 44: its figures are not quoted).
  const perAgent = numArg(args, 'wakes', quick ? 6 : 500);
  const total = agents * perAgent;

  const bareBefore = await bareAgentWork(agents, Math.max(quick ? 4 : 10, Math.round(perAgent / 5)), (a, i) => ({
    target: `#a${a}`,
    content: `[demo] Hi! I am the demo agent, reply ${i}.`,
  }));

  const config = {
    agents: Array.from({ length: agents }, (_, a) => ({ id: `demo${a}`, name: `Demo ${a}`, runtime: 'demo' })),
    channels: { local: {} },
    limits: { sendsPerMinute: 10_000 },
  };
  // --profile DIR: the daemon writes a V8 CPU profile there on exit (node --cpu-prof).
  const profileDir = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : undefined;
  const serve = await startServe(config, {
    nodeArgs: profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  const client = await wsClient(serve.origin, serve.token, serve.operatorKey);
  const browser = await launchChromium();
  try {
    for (let a = 0; a < agents; a++) await client.call('conversations.create', { target: `#a${a}` });

    // Every terminal push, by message id; waiters woken by message id.
    const terminalAt = new Map<string, { at: number; wake: WakePush }>();
    const woke = new EventEmitter();
    woke.setMaxListeners(0);
    const statuses: Record<string, number> = {};
    client.events.on('event', (f: { event: string; payload: WakePush }) => {
      if (f.event !== 'wake.status' || !TERMINAL.has(f.payload.status) || terminalAt.has(f.payload.messageId)) return;
      terminalAt.set(f.payload.messageId, { at: performance.now(), wake: f.payload });
      statuses[f.payload.status] = (statuses[f.payload.status] ?? 0) + 1;
      woke.emit(f.payload.messageId);
    });

    // The UI: #a0 open; chips stamped by a MutationObserver; long tasks observed.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(serve.url);
    await page.locator('button[data-target="#a0"]').click();
    await page.locator('[role="status"][data-target="#a0"]').waitFor({ state: 'attached' });
    const uiProfileDir = args.includes('--ui-profile') ? args[args.indexOf('--ui-profile') + 1] : undefined;
    const cdp = uiProfileDir === undefined ? undefined : await page.context().newCDPSession(page);
    if (cdp !== undefined) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    }
    const chipAt = new Map<string, number>();
    const chips = new EventEmitter();
    await page.exposeBinding('__chipSettled', (_s, wakeToken: string, at: number) => {
      if (!chipAt.has(wakeToken)) chipAt.set(wakeToken, at);
      chips.emit('chip');
    });
    await page.evaluate(`(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask' });
      const reported = new Set();
      const area = document.querySelector('[role="status"][data-target]');
      new MutationObserver(() => {
        const at = Date.now();
        for (const el of area.querySelectorAll('[data-wake][data-status="reply_sent"]')) {
          const t = el.getAttribute('data-wake');
          if (!reported.has(t)) { reported.add(t); window.__chipSettled(t, at); }
        }
      }).observe(area, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
      // Baseline under the same load: a bare WebSocket round trip every 50 ms to the API (an unknown call, answered at once).
      window.__rtt = [];
      // The same pushes the app receives, stamped on arrival: the renderer's share of ACK → chip.
      window.__arrived = {};
      // This probe also stamps when #a0's terminal pushes arrive in the page (the renderer's share), so it takes events.
      const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api' + location.search + '&operator=' + '${encodeURIComponent(serve.operatorKey)}');
      ws.onopen = () => {
        let t = 0;
        ws.onmessage = (e) => {
          if (!e.data.includes('"event":')) return void window.__rtt.push(performance.now() - t);
          if (!e.data.includes('"reply_sent"') || !e.data.includes('"#a0"')) return;
          const f = JSON.parse(e.data);
          // One event per frame, or several in one {events} frame (issue 30).
          for (const x of f.events ?? [f])
            if (x.event === 'wake.status' && x.payload.target === '#a0') window.__arrived[x.payload.wakeToken] ??= Date.now();
        };
        window.__rttTimer = setInterval(() => { t = performance.now(); ws.send('{"id":1,"call":"conversations.list","request":{}}'); }, 50);
      };
    })()`);

    const latencies: number[] = [];
    const m0 = await serve.metrics();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: agents }, async (_, a) => {
        for (let i = 0; i < perAgent; i++) {
          const sentAt = performance.now();
          const sent = (await client.call('messages.send', { target: `#a${a}`, content: `@demo${a} wake ${i}` })) as {
            messageId: string;
          };
          if (!terminalAt.has(sent.messageId))
            await once(woke, sent.messageId, { signal: AbortSignal.timeout(120_000) }).catch(() => {
              throw new Error(`bench: wake of ${sent.messageId} (agent demo${a}, #${i}) not terminal within 120 s`);
            });
          latencies.push((terminalAt.get(sent.messageId)?.at as number) - sentAt);
        }
      }),
    );
    const wallMs = performance.now() - t0;
    const m1 = await serve.metrics();
    const daemonCpuMsPerWake = ((cpuSeconds(m1) - cpuSeconds(m0)) * 1000) / total;
    // The daemon's own event-loop delay over the load window (prom-client's monitorEventLoopDelay,
    // 10 ms resolution, reset by each /metrics scrape: m0 started the window). The page's bare
    // WebSocket round trip waits behind exactly this: a loop turn that runs many agents' work.
    // Percentiles are over the 10 ms timer's fires (few while the loop is busy), so the p50 is
    // higher than a 1 ms monitor's; max and p99 agree with one (checked: max 176.95 ms both).
    const loopMs = (name: string): number => r2((m1.get(`nodejs_eventloop_lag_${name}_seconds`) ?? Number.NaN) * 1000);
    const loopDelay = { p50: loopMs('p50'), p90: loopMs('p90'), p99: loopMs('p99'), max: loopMs('max') };
    const active = (await client.call('wakes.list', { activeOnly: true, limit: 1000 })) as unknown[];
    // Durable commits per wake: every store write is one IMMEDIATE transaction (a wake event
    // and its mirror on the wake row share one), so rows ≈ commits.
    const rows0 = storeRows(serve.dataDir);
    // The daemon counts its commits (agentteam_store_commits_total); rows are the fallback for an older build.
    const commitDelta =
      (m1.get('agentteam_store_commits_total') ?? Number.NaN) - (m0.get('agentteam_store_commits_total') ?? Number.NaN);
    const commitsPerWake = Number.isFinite(commitDelta)
      ? commitDelta / total
      : (rows0.messages + rows0.wake_events + rows0.prompt_inputs + rows0.audit + rows0.undelivered) / total;
    // FULL commits (one WAL fsync each; store/durability.ts); an older build had only FULL ones.
    const durableDelta =
      (m1.get('agentteam_store_durable_commits_total') ?? Number.NaN) -
      (m0.get('agentteam_store_durable_commits_total') ?? Number.NaN);
    const durablePerWake = Number.isFinite(durableDelta) ? durableDelta / total : commitsPerWake;
    // issue 30: WAL fsyncs for them (group commit: one per loop turn with any, off the main thread).
    const syncDelta =
      (m1.get('agentteam_store_wal_syncs_total') ?? Number.NaN) -
      (m0.get('agentteam_store_wal_syncs_total') ?? Number.NaN);
    const walSyncsPerWake = Number.isFinite(syncDelta) ? syncDelta / total : durablePerWake;
    const finalChecksPerWake = rows0.final_checks / total;
    const commitMs = rawCommitMs(quick ? 50 : 200);

    // Chips of #a0: ACK (endedAt) → chip seen. Give the last chips a moment to land (event-driven wait, bounded).
    const a0 = [...terminalAt.values()].filter((x) => x.wake.target === '#a0' && x.wake.status === 'reply_sent');
    const deadline = Date.now() + 10_000;
    while (a0.some((x) => !chipAt.has(x.wake.wakeToken)) && Date.now() < deadline)
      await once(chips, 'chip', { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) }).catch(
        () => undefined,
      );
    const ackToChip = a0
      .filter((x) => chipAt.has(x.wake.wakeToken) && x.wake.endedAt !== null)
      .map((x) => (chipAt.get(x.wake.wakeToken) as number) - Date.parse(x.wake.endedAt as string));
    const ui = (await page.evaluate(
      '(() => { clearInterval(window.__rttTimer); return { longTasks: window.__longTasks, rtt: window.__rtt, arrived: window.__arrived }; })()',
    )) as { longTasks: number[]; rtt: number[]; arrived: Record<string, number> };
    if (cdp !== undefined && uiProfileDir !== undefined) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      mkdirSync(uiProfileDir, { recursive: true });
      writeFileSync(join(uiProfileDir, 'many-agents-ui.cpuprofile'), JSON.stringify(profile));
      const trace = await browser.stopTracing();
      writeFileSync(join(uiProfileDir, 'many-agents-ui.trace.json'), trace);
      console.error(`UI long tasks in the trace: ${JSON.stringify(traceLongTasks(trace), null, 1)}`);
    }
    // The renderer's share: the push's arrival in the page → the chip in the DOM.
    const arrivalToChip = a0.flatMap((x) => {
      const arrived = ui.arrived[x.wake.wakeToken];
      const chip = chipAt.get(x.wake.wakeToken);
      return arrived === undefined || chip === undefined ? [] : [chip - arrived];
    });
    const bareAfter = await bareAgentWork(agents, Math.max(quick ? 4 : 10, Math.round(perAgent / 5)), (a, i) => ({
      target: `#a${a}`,
      content: `[demo] Hi! I am the demo agent, reply ${i}.`,
    }));

    const bare = [...bareBefore.latencies, ...bareAfter.latencies];
    const bareCpu = (bareBefore.cpuMsPerCall + bareAfter.cpuMsPerCall) / 2;
    const p50 = percentile(latencies, 50);
    const bareP50 = percentile(bare, 50);
    const addedP50 = p50 - bareP50;
    const chipP95 = percentile(ackToChip, 95);
    const rttP95 = percentile(ui.rtt, 95);
    const longest = Math.max(0, ...ui.longTasks);
    const allTerminal = latencies.length === total && terminalAt.size === total && active.length === 0;
    const figures: Figure[] = [
      {
        name: `${agents} agents × ${perAgent} wakes: every wake terminal`,
        value: terminalAt.size,
        unit: 'wakes',
        goal: `${total} terminal, none active`,
        met: allTerminal,
        note: JSON.stringify(statuses),
      },
      {
        name: 'operator send → terminal (p50), daemon share beyond the agent’s own work',
        value: r2(addedP50),
        unit: 'ms',
        baseline: r2(bareP50),
        ratio: r2(bareP50 / p50),
        goal: '≤ 2 ms added p50',
        met: addedP50 <= 2,
        note: `send→terminal p50 ${r2(p50)} ms, p95 ${r2(percentile(latencies, 95))} ms; bare agent call p50 ${r2(bareP50)} ms, p95 ${r2(percentile(bare, 95))} ms`,
      },
      {
        name: 'durable (FULL, fsynced) commits per wake × raw commit (same disk, same run)',
        value: r2(durablePerWake * commitMs),
        unit: 'ms',
        note: `${r2(durablePerWake)} FULL of ${r2(commitsPerWake)} ${Number.isFinite(commitDelta) ? 'counted' : 'estimated from rows'} commits per wake (the rest synchronous=NORMAL, store/durability.ts; rows ${JSON.stringify(rows0)}) × raw WAL+FULL insert p50 ${r2(commitMs)} ms; final-checks per wake ${r2(finalChecksPerWake)}; WAL fsyncs per wake ${r2(walSyncsPerWake)} (group commit, off the main thread)`,
      },
      {
        name: 'daemon CPU per wake',
        value: r2(daemonCpuMsPerWake),
        unit: 'ms CPU',
        baseline: r2(bareCpu),
        ratio: r2(bareCpu / daemonCpuMsPerWake),
        note: `added beyond the bare agent call: ${r2(daemonCpuMsPerWake - bareCpu)} ms CPU; ${r2((total / wallMs) * 1000)} wakes/s`,
      },
      {
        name: 'ACK → chip under load (p95)',
        value: r2(chipP95),
        unit: 'ms',
        baseline: r2(rttP95),
        ratio: r2(rttP95 / Math.max(chipP95, 1)),
        goal: '≤ 16 ms',
        met: chipP95 <= 16,
        note: `p50 ${r2(percentile(ackToChip, 50))} ms over ${ackToChip.length} chips; of which the renderer (push arrived in the page → chip) p50 ${r2(percentile(arrivalToChip, 50))}, p95 ${r2(percentile(arrivalToChip, 95))} ms; baseline = bare WebSocket round trip p95 from the page; daemon event-loop delay p50 ${loopDelay.p50}, p99 ${loopDelay.p99}, max ${loopDelay.max} ms`,
      },
      {
        name: 'UI long tasks (> 50 ms) under load',
        value: ui.longTasks.length,
        unit: 'tasks',
        goal: 'none longer than 50 ms',
        met: ui.longTasks.length === 0,
        note: `longest ${r2(longest)} ms`,
      },
    ];
    if (!allTerminal)
      throw new Error(
        `bench: not every wake ended: ${terminalAt.size}/${total} terminal, ${active.length} still active; ${JSON.stringify(statuses)}`,
      );
    return {
      value: r2(p50),
      baseline: r2(bareP50),
      ratio: r2(bareP50 / p50),
      unit: 'ms (operator send → terminal p50; baseline = the demo agent’s bare MCP call p50)',
      goal: 'daemon adds ≤ 2 ms p50 per wake; ACK→chip p95 ≤ 16 ms; no long task > 50 ms',
      agents,
      wakesPerAgent: perAgent,
      wakes: total,
      statuses,
      sendToTerminalP50Ms: r2(p50),
      sendToTerminalP95Ms: r2(percentile(latencies, 95)),
      bareAgentCallP50Ms: r2(bareP50),
      bareAgentCallP95Ms: r2(percentile(bare, 95)),
      daemonAddedP50Ms: r2(addedP50),
      daemonCpuMsPerWake: r2(daemonCpuMsPerWake),
      commitsPerWake: r2(commitsPerWake),
      durableCommitsPerWake: r2(durablePerWake),
      walSyncsPerWake: r2(walSyncsPerWake),
      finalChecksPerWake: r2(finalChecksPerWake),
      rawCommitP50Ms: r2(commitMs),
      storeRows: rows0,
      bareAgentCpuMsPerCall: r2(bareCpu),
      wakesPerSecond: r2((total / wallMs) * 1000),
      ackToChipP50Ms: r2(percentile(ackToChip, 50)),
      ackToChipP95Ms: r2(chipP95),
      arrivalToChipP50Ms: r2(percentile(arrivalToChip, 50)),
      arrivalToChipP95Ms: r2(percentile(arrivalToChip, 95)),
      chips: ackToChip.length,
      pageWsRttP95Ms: r2(rttP95),
      daemonLoopDelayMs: loopDelay,
      longTasks: ui.longTasks.length,
      longestTaskMs: r2(longest),
      figures,
      machine: machine(),
    };
  } finally {
    client.close();
    await browser.close();
    await serve.stop();
  }
}
