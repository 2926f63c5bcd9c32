/**
 * `npm run bench -- prompt-overhead`: the prompt compiler's per-wake cost.
 *
 * value    = deliveries compiled per second (contract block + envelope + tail reminder + fingerprints)
 * baseline = bare envelopes per second (the message envelope alone, no contract, no reminder), same run
 * ratio    = value / baseline (higher is better)
 *
 * Also reports the per-wake byte overhead (turn-context block + tail reminder, i.e. everything
 * written into the session beyond the message envelope) per runtime, surface and language,
 * and the size of a one-wake final-check prompt (contract §8.2: keep it short).
 */
import { compileDelivery, type DeliveryMessage, type PromptAgent } from '../main/daemon/prompt/prompt-compiler.js';
import { toolNamingOf } from '../main/daemon/runtime/registry.js';
import { renderFinalCheck } from '../main/daemon/prompt/final-check.js';
import { AgentConfigSchema, PROMPT_LANGUAGES, type AgentConfig, type PromptLanguage } from '../shared/config.js';
import { targetKey } from '../shared/target.js';
import { RUNTIMES, type RuntimeKind } from '../shared/wake-status.js';
import type { Figure } from './bench-kit.js';

const agentFor = (runtime: RuntimeKind, language: PromptLanguage): AgentConfig & PromptAgent => {
  const agent = AgentConfigSchema.parse({ id: 'agent', name: 'Agent', runtime, language });
  return { ...agent, toolNaming: toolNamingOf(agent) };
};

function messages(n: number): DeliveryMessage[] {
  return Array.from({ length: n }, (_, i) => ({
    messageId: `m_${i}`,
    target: targetKey(i % 3 === 0 ? '#general:ab12' : '#general'),
    targetSeq: i,
    wakeToken: `wk_${i}`,
    authorName: 'Alice',
    content: `@agent please look at build ${i}: the retry loop seems to spin when the lock is stale.`,
  }));
}

function bareEnvelope(m: DeliveryMessage): string {
  return `<agentteam-message id="${m.messageId}" target="${m.target}" seq="${m.targetSeq}" from="${m.authorName}">\n${m.content}\n</agentteam-message>`;
}

function opsPerSecond(run: (m: DeliveryMessage) => number, inputs: DeliveryMessage[], minMs: number): number {
  let ops = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (const m of inputs) sink += run(m);
    ops += inputs.length;
    elapsed = performance.now() - start;
  }
  if (sink === -1) console.log(sink);
  return (ops / elapsed) * 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export default async function (args: string[]): Promise<Record<string, unknown>> {
  // --quick (or BENCH_QUICK=1): small sizes, the CI smoke run (issue 19).
  const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
  const pos = args.filter((a) => !a.startsWith('--'));
  const rounds = Number(pos[0] ?? (quick ? 2 : 5));
  const minMs = Number(pos[1] ?? (quick ? 100 : 300));
  const inputs = messages(200);

  const overheadBytes: Record<string, number> = {};
  const finalCheckBytes: Record<string, number> = {};
  for (const runtime of RUNTIMES)
    for (const language of PROMPT_LANGUAGES)
      for (const surface of ['mcp', 'cli'] as const) {
        if (surface === 'cli' && runtime !== 'claude-code') continue;
        const m = inputs[0]!;
        const compiled = compileDelivery(agentFor(runtime, language), [m], { turn: 'wake', surface });
        const key = `${surface === 'cli' ? 'cli' : runtime}/${language}`;
        overheadBytes[key] = Buffer.byteLength(compiled.text) - Buffer.byteLength(bareEnvelope(m));
        finalCheckBytes[key] = Buffer.byteLength(
          renderFinalCheck(
            [{ target: m.target, wakes: [{ messageId: m.messageId, targetSeq: m.targetSeq, wakeToken: m.wakeToken }] }],
            { naming: toolNamingOf({ runtime }), language, surface },
          ),
        );
      }

  const agent = agentFor('claude-code', 'en');
  const compiledRun = (m: DeliveryMessage): number => compileDelivery(agent, [m], { turn: 'wake' }).text.length;
  const bareRun = (m: DeliveryMessage): number => bareEnvelope(m).length;
  // Warm up both paths before measuring.
  opsPerSecond(compiledRun, inputs, 100);
  opsPerSecond(bareRun, inputs, 100);
  const values: number[] = [];
  const baselines: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Interleaved rounds so machine load hits both sides alike.
    values.push(opsPerSecond(compiledRun, inputs, minMs));
    baselines.push(opsPerSecond(bareRun, inputs, minMs));
  }
  const value = median(values);
  const baseline = median(baselines);
  const overheads = Object.values(overheadBytes);
  return {
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Number((value / baseline).toFixed(4)),
    unit: 'deliveries/s',
    microsPerDelivery: Number((1e6 / value).toFixed(2)),
    overheadBytes,
    maxOverheadBytes: Math.max(...overheads),
    minOverheadBytes: Math.min(...overheads),
    finalCheckBytes,
    rounds,
    figures: [
      {
        name: 'deliveries compiled/s vs bare envelopes',
        value: Math.round(value),
        unit: 'deliveries/s',
        baseline: Math.round(baseline),
        ratio: Number((value / baseline).toFixed(4)),
        note: `${(1e6 / value).toFixed(2)} µs per delivery`,
      },
      {
        name: 'bytes written per wake beyond the envelope (turn context + tail reminder), largest',
        value: Math.max(...overheads),
        unit: 'B',
        note: `smallest ${Math.min(...overheads)} B; per runtime/surface/language ${JSON.stringify(overheadBytes)}`,
      },
      {
        name: 'one-wake final-check prompt, largest',
        value: Math.max(...Object.values(finalCheckBytes)),
        unit: 'B',
        note: JSON.stringify(finalCheckBytes),
      },
    ] satisfies Figure[],
  };
}
