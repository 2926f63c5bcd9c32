/**
 * `npm run bench -- long-conversation [--quick] [--messages N] [--total N]` (issue 19): a month
 * of use in one conversation. The store gets `--total` messages (default 1,000,000) across
 * conversations, `--messages` of them (default 100,000) in `#long`, by one raw bulk insert in a
 * transaction (the schema comes from the Store itself; building is not measured). Then the
 * real `agentteam serve` opens that data dir and Debian's Chromium measures, each against a raw
 * baseline in the same run:
 *
 * - open: click `#long` in the sidebar → the newest message painted (two animation frames after
 *   it is in the DOM). Baseline: the bare `messages.list` round trip for the same page over a
 *   fresh WebSocket from the same page (the data alone, no React). Goal ≤ 300 ms.
 * - scroll: requestAnimationFrame deltas while a mouse wheel scrolls up 10,000 messages (CDP
 *   `Input.synthesizeScrollGesture`, 5,000 px/s; older pages load on the way, as a person's
 *   scroll triggers them). Baseline: rAF deltas of the same page doing nothing (the machine's
 *   own frame cadence under the current load). Goal p95 ≤ 16.7 ms. Long tasks (> 50 ms,
 *   PerformanceObserver 'longtask') during the scroll are counted. Also, as a stress figure (the
 *   first pass's method, no longer the headline: it forces a layout per frame itself and moves
 *   24,000 px/s), the page setting scrollTop 400 px up every frame over the same distance.
 * - older page: the "loading older" row shown → removed (the page fetched, merged, rendered).
 *   Baseline: the bare `messages.list` round trip with `beforeSeq`.
 * - page query: `Store.listMessages` (201 rows, newest-first with beforeSeq, as the API asks)
 *   p99 against the same query on raw `node:sqlite`, interleaved, in this process after the
 *   daemon stopped. Headline value/baseline/ratio: this p99 (ratio = raw / store).
 *
 * `--ui-profile DIR` writes the scroll's Chromium trace (long-conversation-scroll.trace.json, open in
 * DevTools → Performance) and the page's CPU profile (long-conversation-scroll.cpuprofile) to DIR.
 *
 * - search: 20 queries of different selectivity, made of words the generator below really writes
 *   (rare: a 5–6 digit message number, 1–2 hits; common: a word of every message, e.g. `lorem`;
 *   phrase: several words, e.g. `dolor sit amet`, `second line`). In Chromium, in the search box
 *   of the conversation header: the query entered (one `input` event, as the last keystroke or a
 *   paste) → its results in the DOM and painted (two animation frames). This includes the box's
 *   deliberate 200 ms debounce (renderer search-box.tsx), so the goal is p95 ≤ 300 ms: the
 *   debounce plus ≤ 100 ms for query and render, the limit under which feedback to typing feels
 *   immediate (and the same bound as opening a conversation). Baseline: the bare
 *   `messages.search` round trip (20 results, as the box asks) over a WebSocket from the same
 *   page. After the daemon stopped, `Store.searchMessages` against the same FTS5 query on raw
 *   `node:sqlite`, interleaved, in this process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store, DB_FILE } from '../main/daemon/store/index.js';
import { targetKey } from '../shared/target.js';
import { isQuick, launchChromium, machine, numArg, percentile, r2, startServe, type Figure } from './bench-kit.js';

const LONG = '#long';
/** The wheel scroll: px per gesture and its speed (a fast reading scroll; ~50 px per message). */
const WHEEL_CHUNK_PX = 20_000;
const WHEEL_SPEED_PX_S = 5_000;

interface ScrollRun {
  frames: number[];
  loads: number[];
  longTasks: number[];
  ms: number;
}

/**
 * Installs `window.__bench` in the page: rAF frame deltas (while `recording`), long tasks,
 * older-page loads (the "loading older" row shown → removed) and the lowest seq rendered.
 */
const RECORDER = `(() => {
  const el = document.querySelector('.message-scroll');
  const b = { el, recording: false, frames: [], loads: [], longTasks: [] };
  let last = null; let loadStart = null; let running = true;
  const f = (t) => { if (b.recording && last !== null) b.frames.push(t - last); last = t; if (running) requestAnimationFrame(f); };
  requestAnimationFrame(f);
  const po = new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push(e.duration); });
  po.observe({ type: 'longtask', buffered: false });
  const mo = new MutationObserver(() => {
    const on = el.querySelector('.loading-older') !== null;
    if (on && loadStart === null) loadStart = performance.now();
    if (!on && loadStart !== null) { b.loads.push(performance.now() - loadStart); loadStart = null; }
  });
  mo.observe(el, { childList: true });
  b.minSeq = () => { let m = Infinity; for (const a of el.querySelectorAll('[data-seq]')) m = Math.min(m, Number(a.dataset.seq)); return m; };
  b.stop = () => { running = false; po.disconnect(); mo.disconnect(); return { frames: b.frames, loads: b.loads, longTasks: b.longTasks, ms: 0 }; };
  window.__bench = b;
})()`;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function content(i: number): string {
  // Varied heights for the virtualiser: 1 to 12 phrases, every 17th message on several lines.
  const body = 'lorem ipsum dolor sit amet '.repeat(1 + (i % 12));
  return i % 17 === 0 ? `message ${i}:\n${body}\nsecond line\nthird line` : `message ${i}: ${body}`;
}

interface SearchQuery {
  readonly kind: 'rare' | 'common' | 'phrase';
  readonly text: string;
}

/**
 * 20 queries over the words `content` writes: message numbers (rare: a number with as many digits
 * as the largest is in one message of the rooms and at most one of `#long`), words of every
 * message (common) and several words together (phrase; all terms must match).
 */
function searchQueries(longCount: number, total: number): SearchQuery[] {
  const top = Math.max(total - longCount, longCount) - 1;
  const low = 10 ** (String(top).length - 1);
  const number = (k: number, of: number): string => String(low + Math.floor(((top - low) * (k + 0.5)) / of));
  const rare = Array.from({ length: 7 }, (_, k) => number(k, 7));
  const common = ['lorem', 'ipsum', 'dolor', 'amet', 'message', 'line'];
  const phrase = [
    'lorem ipsum',
    'dolor sit amet',
    'second line',
    'third line',
    'sit amet lorem',
    'ipsum dolor sit',
    `message ${number(3, 8)}`,
  ];
  const out: SearchQuery[] = [];
  for (let i = 0; i < 7; i++) {
    for (const [kind, list] of [
      ['rare', rare],
      ['common', common],
      ['phrase', phrase],
    ] as const) {
      const text = list[i];
      if (text !== undefined) out.push({ kind, text });
    }
  }
  return out;
}

/**
 * In the page: enters `text` into the search box (after clearing it) and returns ms from that
 * `input` event to the results (or the "no messages" line) in the DOM plus two frames (painted).
 * The native value setter + an `input` event is what React's onChange sees from a keystroke.
 */
const typeAndWait = (text: string): string => `(async () => {
  const input = document.querySelector('input.search-input');
  if (input === null) throw new Error('bench: no search box on the page');
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const enter = (v) => { setValue.call(input, v); input.dispatchEvent(new Event('input', { bubbles: true })); };
  const until = (ok) => new Promise((resolve) => {
    if (ok()) return resolve();
    const mo = new MutationObserver(() => { if (ok()) { mo.disconnect(); resolve(); } });
    mo.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  input.focus();
  enter('');
  await until(() => document.querySelector('#search-results') === null);
  const t0 = performance.now();
  enter(${JSON.stringify(text)});
  await until(() => document.querySelector('#search-results .search-hits') !== null ||
    /^No messages match/.test(document.querySelector('#search-results .search-status')?.textContent ?? ''));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { ms: performance.now() - t0, hits: document.querySelectorAll('#search-results .search-hit').length };
})()`;

/** Store.searchMessages vs the same FTS5 query on raw node:sqlite, interleaved; latencies in ms. */
function searchQueriesRaw(dataDir: string, queries: readonly SearchQuery[], rounds: number) {
  const store = Store.open(dataDir);
  const db = new DatabaseSync(join(dataDir, DB_FILE), { readOnly: true });
  // The statement message-search.ts runs for terms of 3+ characters (every term here).
  const raw = db.prepare(`SELECT m.* FROM messages_fts f JOIN messages m ON m.rowid_ = f.rowid
    WHERE messages_fts MATCH ? AND f.rowid < ? ORDER BY f.rowid DESC LIMIT ?`);
  const out = { store: [] as number[], raw: [] as number[] };
  try {
    for (let i = 0; i < rounds + 1; i++) {
      for (const [j, q] of queries.entries()) {
        const match = q.text
          .split(/\s+/u)
          .map((t) => `"${t}"`)
          .join(' AND ');
        for (const side of (i + j) % 2 === 0 ? ['store', 'raw'] : ['raw', 'store']) {
          const t0 = process.hrtime.bigint();
          const n =
            side === 'store'
              ? store.searchMessages(q.text, { limit: 20 }).hits.length
              : raw.all(match, Number.MAX_SAFE_INTEGER, 21).length;
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (n === 0) throw new Error(`bench: search for "${q.text}" found nothing (${side})`);
          if (i > 0) (side === 'store' ? out.store : out.raw).push(ms); // the first round warms up
        }
      }
    }
  } finally {
    db.close();
    store.close();
  }
  return out;
}

/** Schema from the Store; then one raw transaction inserts every message. Returns ms. */
function build(dataDir: string, longCount: number, total: number): { buildMs: number; others: number } {
  const t0 = performance.now();
  const others = Math.max(1, Math.ceil((total - longCount) / 10_000));
  const store = Store.open(dataDir);
  store.upsertMember({ id: 'demo', kind: 'agent', name: 'Demo' });
  store.ensureConversation(targetKey(LONG));
  for (let c = 0; c < others; c++) store.ensureConversation(targetKey(`#room${c}`));
  store.close();
  const db = new DatabaseSync(join(dataDir, DB_FILE));
  db.exec('PRAGMA synchronous=OFF');
  const insert = db.prepare(
    'INSERT INTO messages (id, target, seq, author_id, author_kind, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const base = Date.parse('2026-01-01T00:00:00Z');
  db.exec('BEGIN');
  const put = (target: string, seq: number, n: number) => {
    const agent = seq % 2 === 0;
    insert.run(
      `msg_${target}_${seq}`,
      target,
      seq,
      agent ? 'demo' : 'operator',
      agent ? 'agent' : 'operator',
      content(n),
      new Date(base + seq * 1000).toISOString(),
    );
  };
  for (let s = 1; s <= longCount; s++) put(LONG, s, s);
  const rest = total - longCount;
  for (let i = 0; i < rest; i++) put(`#room${i % others}`, Math.floor(i / others) + 1, i);
  db.exec('COMMIT');
  db.close();
  return { buildMs: performance.now() - t0, others };
}

/** Store page query vs the same query on raw node:sqlite, interleaved; latencies in ms. */
function pageQueries(dataDir: string, longCount: number, n: number): { store: number[]; raw: number[] } {
  const store = Store.open(dataDir);
  const db = new DatabaseSync(join(dataDir, DB_FILE), { readOnly: true });
  const raw = db.prepare('SELECT * FROM messages WHERE target = ? AND seq < ? ORDER BY seq DESC LIMIT ?');
  const key = targetKey(LONG);
  const out = { store: [] as number[], raw: [] as number[] };
  try {
    for (let i = 0; i < n + 50; i++) {
      const before = 202 + Math.floor(Math.random() * (longCount - 201));
      const order = i % 2 === 0 ? ['store', 'raw'] : ['raw', 'store'];
      for (const side of order) {
        const t0 = process.hrtime.bigint();
        const rows =
          side === 'store'
            ? store.listMessages(key, { beforeSeq: before, limit: 201 })
            : raw.all(key, before, 201).reverse();
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (rows.length !== 201) throw new Error(`bench: page query returned ${rows.length} rows`);
        if (i >= 50) (side === 'store' ? out.store : out.raw).push(ms); // the first 50 warm up
      }
    }
  } finally {
    db.close();
    store.close();
  }
  return out;
}

/**
 * Sums a Chromium trace's main-thread (CrRendererMain) events by kind, in ms. Events nest (a
 * forced Layout sits inside the FunctionCall that forced it), so the kinds overlap; `task` is
 * the total of top-level tasks.
 */
function mainThreadBreakdown(buffer: Buffer): Record<string, number> {
  const { traceEvents } = JSON.parse(buffer.toString()) as {
    traceEvents: Array<{ name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } }>;
  };
  const main = traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const kinds: Record<string, string> = {
    RunTask: 'task',
    FunctionCall: 'script',
    EventDispatch: 'event',
    FireAnimationFrame: 'animationFrame',
    UpdateLayoutTree: 'style',
    Layout: 'layout',
    PrePaint: 'prePaint',
    Paint: 'paint',
    Layerize: 'layerize',
    MinorGC: 'gc',
    MajorGC: 'gc',
  };
  const out: Record<string, number> = {};
  for (const e of traceEvents) {
    if (main === undefined || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || e.dur === undefined) continue;
    const kind = kinds[e.name];
    if (kind !== undefined) out[kind] = (out[kind] ?? 0) + e.dur / 1000;
  }
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] as number);
  return out;
}

export default async function longConversation(args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  // --quick is the smoke run of `npm test` (issue 44: its figures are not quoted): every step runs
  // (build, open, wheel and jump scroll over older pages, search, raw queries), over small sizes;
  // the wheel scroll runs at 5,000 px/s, so its distance is most of the quick run's time.
  const longCount = numArg(args, 'messages', quick ? 3_000 : 100_000);
  const total = Math.max(longCount, numArg(args, 'total', quick ? 10_000 : 1_000_000));
  const scrollMessages = Math.min(longCount - 400, quick ? 400 : 10_000);
  const opens = quick ? 2 : 7;
  const dataDir = await mkdtemp(join(tmpdir(), 'agentteam-bench-long-'));
  try {
    const { buildMs, others } = build(dataDir, longCount, total);
    console.error(
      `built ${total} messages (${longCount} in ${LONG}, the rest in ${others} rooms) in ${Math.round(buildMs)} ms`,
    );

    const serve = await startServe(
      { agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }], channels: { local: {} } },
      { dataDir },
    );
    const browser = await launchChromium();
    let browserFigures: Record<string, number> = {};
    let scrollTrace: Record<string, number> = {};
    const queries = searchQueries(longCount, total);
    const searchUi: Array<SearchQuery & { ms: number }> = [];
    const searchRtt: number[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const openMs: number[] = [];
      const openRtt: number[] = [];
      for (let i = 0; i < opens; i++) {
        await page.goto(serve.url);
        const button = page.locator(`button[data-target="${LONG}"]`);
        await button.waitFor();
        await page.locator('[role="status"]').first().waitFor({ state: 'attached' });
        // In-page clock: click → newest message in the DOM → two frames (painted).
        openMs.push(
          (await page.evaluate(`(async () => {
            const want = '[data-seq="${longCount}"]';
            const t0 = performance.now();
            document.querySelector('button[data-target="${LONG}"]').click();
            await new Promise((resolve) => {
              if (document.querySelector(want)) return resolve();
              const mo = new MutationObserver(() => { if (document.querySelector(want)) { mo.disconnect(); resolve(); } });
              mo.observe(document.body, { subtree: true, childList: true });
            });
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            return performance.now() - t0;
          })()`)) as number,
        );
        // Baseline: the same newest page over a bare WebSocket from this page (data only, no render).
        openRtt.push(
          (await page.evaluate(`(async () => {
            const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api' + location.search + '&operator=' + '${encodeURIComponent(serve.operatorKey)}');
            await new Promise((r) => (ws.onopen = r));
            const t0 = performance.now();
            await new Promise((r) => { ws.onmessage = (e) => { JSON.parse(e.data); r(); }; ws.send(JSON.stringify({ id: 1, call: 'messages.list', request: { target: '${LONG}', limit: 200 } })); });
            const ms = performance.now() - t0;
            ws.close();
            return ms;
          })()`)) as number,
        );
      }

      // Idle frame cadence (the baseline for scrolling), then the scroll itself.
      const idle = (await page.evaluate(`(async () => {
        const d = []; let last = null;
        await new Promise((done) => { const f = (t) => { if (last !== null) d.push(t - last); last = t; if (d.length < 300) requestAnimationFrame(f); else done(); }; requestAnimationFrame(f); });
        return d;
      })()`)) as number[];
      // A Chromium performance trace of the wheel scroll: where the main thread's time goes.
      const uiProfileDir = args.includes('--ui-profile') ? args[args.indexOf('--ui-profile') + 1] : undefined;
      const cdp = await page.context().newCDPSession(page);
      if (uiProfileDir !== undefined) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
      const target = longCount - scrollMessages;
      // What a person does: wheel input (Chromium's synthetic scroll gesture, mouse wheel, as
      // Telemetry's smoothness benchmarks drive it) at a fast reading-scroll speed; the compositor
      // scrolls and the page renders what comes into view. Frames are counted only while a gesture runs.
      await page.evaluate(RECORDER);
      const wheelStarted = performance.now();
      const box = await page.locator('.message-scroll').boundingBox();
      if (box === null) throw new Error('bench: the message list is not on screen');
      while (((await page.evaluate('window.__bench.minSeq()')) as number) > target) {
        if (performance.now() - wheelStarted > 600_000)
          throw new Error(`bench: the wheel scroll did not reach seq ${target} in 10 min`);
        await page.evaluate('window.__bench.recording = true');
        await cdp.send('Input.synthesizeScrollGesture', {
          x: Math.round(box.x + box.width / 2),
          y: Math.round(box.y + box.height / 2),
          yDistance: WHEEL_CHUNK_PX,
          speed: WHEEL_SPEED_PX_S,
          gestureSourceType: 'mouse',
        });
        await page.evaluate('window.__bench.recording = false');
      }
      const scroll = (await page.evaluate('window.__bench.stop()')) as ScrollRun;
      scroll.ms = performance.now() - wheelStarted;
      const traceBuffer = await browser.stopTracing();
      const trace = mainThreadBreakdown(traceBuffer);
      if (uiProfileDir !== undefined) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
        await mkdir(uiProfileDir, { recursive: true });
        await writeFile(join(uiProfileDir, 'long-conversation-scroll.cpuprofile'), JSON.stringify(profile));
        await writeFile(join(uiProfileDir, 'long-conversation-scroll.trace.json'), traceBuffer);
      }
      console.error(`wheel scroll main thread (ms, nested events overlap): ${JSON.stringify(trace)}`);
      if (uiProfileDir !== undefined)
        console.error(
          // How close the virtualizer's estimates are to the rows' real heights (the first rows held).
          `row heights by kind: ${JSON.stringify(
            await page.evaluate(`(() => {
              const out = {};
              for (const r of document.querySelectorAll('.message-window > .row')) {
                const c = r.firstElementChild;
                const k = c.classList.contains('day-separator') ? 'day' : c.classList.contains('grouped') ? 'grouped' : 'message';
                const h = Math.round(r.getBoundingClientRect().height);
                (out[k] ??= {})[h] = (out[k][h] ?? 0) + 1;
              }
              return out;
            })()`),
          )}`,
        );

      // The stress case kept from the first pass: the page itself jumps 400 px up every frame
      // (24,000 px/s, every frame a mostly new set of rows), from the same starting point.
      // A fresh load: the URL carries the operator key in its fragment, and a goto to the same URL
      // would be a same-document navigation (no reload, the scroll kept).
      await page.goto('about:blank');
      await page.goto(serve.url);
      await page.locator(`button[data-target="${LONG}"]`).click();
      await page.locator(`[data-seq="${longCount}"]`).waitFor();
      await page.evaluate(RECORDER);
      const jump = (await page.evaluate(`(async () => {
        const b = window.__bench; const el = b.el; const started = performance.now();
        b.recording = true;
        await new Promise((done, fail) => {
          const f = () => {
            if (b.minSeq() <= ${target}) return done();
            if (performance.now() - started > 600000) return fail(new Error('jump scroll did not reach seq ${target} in 10 min; at ' + b.minSeq()));
            el.scrollTop = Math.max(0, el.scrollTop - 400);
            requestAnimationFrame(f);
          };
          requestAnimationFrame(f);
        });
        const r = b.stop(); r.ms = performance.now() - started; return r;
      })()`)) as ScrollRun;
      const olderRtt = (await page.evaluate(`(async () => {
        const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api' + location.search + '&operator=' + '${encodeURIComponent(serve.operatorKey)}');
        await new Promise((r) => (ws.onopen = r));
        const out = [];
        for (let i = 0; i < 20; i++) {
          const before = 1000 + Math.floor(Math.random() * ${longCount - 1000});
          const t0 = performance.now();
          await new Promise((r) => { ws.onmessage = (e) => { JSON.parse(e.data); r(); }; ws.send(JSON.stringify({ id: i + 1, call: 'messages.list', request: { target: '${LONG}', beforeSeq: before, limit: 200 } })); });
          out.push(performance.now() - t0);
        }
        ws.close();
        return out;
      })()`)) as number[];
      // Search, as a person does it: the conversation open, a query typed into the header's box.
      // A fresh load: the URL carries the operator key in its fragment, and a goto to the same URL
      // would be a same-document navigation (no reload, the scroll kept).
      await page.goto('about:blank');
      await page.goto(serve.url);
      await page.locator(`button[data-target="${LONG}"]`).click();
      await page.locator(`[data-seq="${longCount}"]`).waitFor();
      await page.evaluate(typeAndWait('lorem')); // warm-up (first render of the results, statements prepared)
      for (const q of queries) {
        const r = (await page.evaluate(typeAndWait(q.text))) as { ms: number; hits: number };
        if (r.hits === 0) throw new Error(`bench: the search box found nothing for "${q.text}"`);
        searchUi.push({ ...q, ms: r.ms });
      }
      // Baseline: the same queries as bare messages.search round trips over a WebSocket from this page.
      const rtt = (await page.evaluate(`(async () => {
        const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api' + location.search + '&operator=' + '${encodeURIComponent(serve.operatorKey)}');
        await new Promise((r) => (ws.onopen = r));
        const out = [];
        const ask = (id, query) => new Promise((r) => { ws.onmessage = (e) => r(JSON.parse(e.data)); ws.send(JSON.stringify({ id, call: 'messages.search', request: { query, limit: 20 } })); });
        await ask(0, 'lorem');
        let id = 1;
        for (const q of ${JSON.stringify(queries.map((q) => q.text))}) {
          const t0 = performance.now();
          const answer = await ask(id++, q);
          out.push({ ms: performance.now() - t0, hits: answer.ok ? answer.value.results.length : -1, answer: JSON.stringify(answer).slice(0, 200) });
        }
        ws.close();
        return out;
      })()`)) as Array<{ ms: number; hits: number; answer: string }>;
      for (const [i, r] of rtt.entries()) {
        if (r.hits === 0) throw new Error(`bench: messages.search found nothing for "${queries[i]?.text}"`);
        if (r.hits < 0) throw new Error(`bench: messages.search answered ${r.answer}`);
        searchRtt.push(r.ms);
      }
      browserFigures = {
        openP50Ms: r2(percentile(openMs, 50)),
        openMaxMs: r2(Math.max(...openMs)),
        openBaselineP50Ms: r2(percentile(openRtt, 50)),
        frameP50Ms: r2(percentile(scroll.frames, 50)),
        frameP95Ms: r2(percentile(scroll.frames, 95)),
        frameP99Ms: r2(percentile(scroll.frames, 99)),
        frames: scroll.frames.length,
        idleFrameP50Ms: r2(percentile(idle, 50)),
        idleFrameP95Ms: r2(percentile(idle, 95)),
        longTasks: scroll.longTasks.length,
        longestTaskMs: r2(Math.max(0, ...scroll.longTasks)),
        scrollSeconds: r2(scroll.ms / 1000),
        jumpFrameP50Ms: r2(percentile(jump.frames, 50)),
        jumpFrameP95Ms: r2(percentile(jump.frames, 95)),
        jumpFrames: jump.frames.length,
        jumpLongTasks: jump.longTasks.length,
        jumpLongestTaskMs: r2(Math.max(0, ...jump.longTasks)),
        olderPages: scroll.loads.length,
        olderPageP50Ms: r2(percentile(scroll.loads, 50)),
        olderPageP95Ms: r2(percentile(scroll.loads, 95)),
        olderPageBaselineP50Ms: r2(percentile(olderRtt, 50)),
        olderPageBaselineP95Ms: r2(percentile(olderRtt, 95)),
      };
      scrollTrace = trace;
    } finally {
      await browser.close();
      await serve.stop();
    }

    const q = pageQueries(dataDir, longCount, quick ? 100 : 2000);
    const sq = searchQueriesRaw(dataDir, queries, quick ? 1 : 10);
    const uiMs = searchUi.map((x) => x.ms);
    const kindP50 = (kind: SearchQuery['kind']): number =>
      r2(
        percentile(
          searchUi.filter((x) => x.kind === kind).map((x) => x.ms),
          50,
        ),
      );
    const searchFigures = {
      searchP50Ms: r2(percentile(uiMs, 50)),
      searchP95Ms: r2(percentile(uiMs, 95)),
      searchRareP50Ms: kindP50('rare'),
      searchCommonP50Ms: kindP50('common'),
      searchPhraseP50Ms: kindP50('phrase'),
      searchBaselineP50Ms: r2(percentile(searchRtt, 50)),
      searchBaselineP95Ms: r2(percentile(searchRtt, 95)),
      searchStoreP50Ms: r3(percentile(sq.store, 50)),
      searchStoreP95Ms: r3(percentile(sq.store, 95)),
      searchRawP50Ms: r3(percentile(sq.raw, 50)),
      searchRawP95Ms: r3(percentile(sq.raw, 95)),
    };
    const sf = searchFigures;
    const storeP99 = percentile(q.store, 99);
    const rawP99 = percentile(q.raw, 99);
    const b = browserFigures as Record<string, number>;
    const figures: Figure[] = [
      {
        name: 'open conversation → newest page painted (p50)',
        value: b.openP50Ms as number,
        unit: 'ms',
        baseline: b.openBaselineP50Ms,
        ratio: r2((b.openBaselineP50Ms as number) / (b.openP50Ms as number)),
        goal: '≤ 300 ms',
        met: (b.openP50Ms as number) <= 300,
        note: `max of ${opens}: ${b.openMaxMs} ms; baseline = bare messages.list round trip`,
      },
      {
        name: `scroll frame time over ${scrollMessages.toLocaleString('en')} messages, mouse wheel (p95)`,
        value: b.frameP95Ms as number,
        unit: 'ms',
        baseline: b.idleFrameP95Ms,
        ratio: r2((b.idleFrameP95Ms as number) / (b.frameP95Ms as number)),
        goal: '≤ 16.7 ms',
        met: (b.frameP95Ms as number) <= 16.7,
        note: `mouse wheel at 5,000 px/s: p50 ${b.frameP50Ms}, p99 ${b.frameP99Ms} ms over ${b.frames} frames; ${b.longTasks} long tasks (longest ${b.longestTaskMs} ms); baseline = idle page rAF p95. Stress (scrollTop −400 px every frame): p50 ${b.jumpFrameP50Ms}, p95 ${b.jumpFrameP95Ms} ms, ${b.jumpLongTasks} long tasks (longest ${b.jumpLongestTaskMs} ms)`,
      },
      {
        name: 'older page: loading row shown → merged and rendered (p95)',
        value: b.olderPageP95Ms as number,
        unit: 'ms',
        baseline: b.olderPageBaselineP95Ms,
        ratio: r2((b.olderPageBaselineP95Ms as number) / (b.olderPageP95Ms as number)),
        note: `p50 ${b.olderPageP50Ms} ms over ${b.olderPages} pages; baseline = bare messages.list beforeSeq round trip`,
      },
      {
        name: 'store page query (201 rows, beforeSeq) p99',
        value: r3(storeP99),
        unit: 'ms',
        baseline: r3(rawP99),
        ratio: r2(rawP99 / storeP99),
        goal: 'ratio ≥ 0.75',
        met: rawP99 / storeP99 >= 0.75,
        note: `p50 store ${r3(percentile(q.store, 50))} ms vs raw ${r3(percentile(q.raw, 50))} ms`,
      },
      {
        name: `search: query typed → results painted, ${queries.length} queries (p95)`,
        value: sf.searchP95Ms,
        unit: 'ms',
        baseline: sf.searchBaselineP95Ms,
        ratio: r2(sf.searchBaselineP95Ms / sf.searchP95Ms),
        goal: '≤ 300 ms (200 ms debounce + ≤ 100 ms)',
        met: sf.searchP95Ms <= 300,
        note: `p50 ${sf.searchP50Ms} ms (rare ${sf.searchRareP50Ms}, common ${sf.searchCommonP50Ms}, phrase ${sf.searchPhraseP50Ms}), including the search box's deliberate 200 ms debounce (beyond it: p95 ${r2(sf.searchP95Ms - 200)} ms); baseline = bare messages.search round trip p95 (p50 ${sf.searchBaselineP50Ms} ms); in process: Store.searchMessages p50 ${sf.searchStoreP50Ms} / p95 ${sf.searchStoreP95Ms} ms vs raw node:sqlite FTS5 p50 ${sf.searchRawP50Ms} / p95 ${sf.searchRawP95Ms} ms`,
      },
    ];
    return {
      value: r3(storeP99),
      baseline: r3(rawP99),
      ratio: r2(rawP99 / storeP99),
      unit: 'ms (store page query p99; ratio = raw node:sqlite p99 / store p99)',
      goal: 'open ≤ 300 ms; scroll frame p95 ≤ 16.7 ms; page query ratio ≥ 0.75; search typed → painted p95 ≤ 300 ms',
      messagesInConversation: longCount,
      messagesInStore: total,
      buildMs: Math.round(buildMs),
      ...browserFigures,
      storeQueryP50Ms: r3(percentile(q.store, 50)),
      rawQueryP50Ms: r3(percentile(q.raw, 50)),
      ...searchFigures,
      searchQueries: queries.map((x) => x.text),
      scrollTraceMs: scrollTrace,
      figures,
      machine: machine(),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
