/**
 * `npm run bench -- validation [--quick]` (issue 30 "the hot path lean"): what checking the two
 * hot requests costs — an agent's `message_send` arguments (mcp/mcp-server.ts) and the operator's
 * `messages.send` request (shared/api/contract.ts, through api/api-gate.ts) — with the zod schemas
 * the daemon uses, against the same schemas compiled to a JSON Schema validator (ajv, through the
 * MCP SDK's own `AjvJsonSchemaValidator`: no new dependency), and a hand-written check as the
 * floor. Valid requests of a typical size (a 300-character reply), in the same process run.
 * Headline: value = zod calls/s on `message_send`, baseline = the compiled validator's, ratio =
 * zod / compiled (≥ 1 means zod is as fast).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { apiCalls } from '../shared/api/contract.js';
import { isQuick, machine, r2, type Figure } from './bench-kit.js';

/** The same shape as mcp-server.ts's MessageSendInput (its schema is module-private). */
const MessageSendInput = z.object({
  target: z.string(),
  content: z.string(),
  allow_cross_target: z.boolean().optional(),
});

type Check = (x: unknown) => boolean;

/** ns per call over `n` calls on `inputs` (round-robin), best of `rounds`. */
function nsPerCall(check: Check, inputs: readonly unknown[], n: number, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (check(inputs[i % inputs.length])) sink += 1;
    const ns = Number(process.hrtime.bigint() - t0) / n;
    best = Math.min(best, ns);
  }
  if (sink === 0) throw new Error('bench: no input was valid');
  return best;
}

export default async function validation(args: string[]): Promise<Record<string, unknown>> {
  const quick = isQuick(args);
  const n = quick ? 20_000 : 500_000;
  const rounds = quick ? 3 : 7;
  const reply = 'x'.repeat(300);
  const agentArgs = Array.from({ length: 64 }, (_, i) => ({ target: `#a${i}`, content: `${reply} ${i}` }));
  const operatorReqs = Array.from({ length: 64 }, (_, i) => ({ target: `#a${i}`, content: `@demo${i} wake ${i}` }));
  const ajv = new AjvJsonSchemaValidator();
  const compile = (schema: z.ZodType): Check => {
    const v = ajv.getValidator(z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>);
    return (x) => v(x).valid;
  };
  const sendSchema = apiCalls['messages.send'].request;
  const results = {
    message_send: {
      zod: nsPerCall((x) => MessageSendInput.safeParse(x).success, agentArgs, n, rounds),
      compiled: nsPerCall(compile(MessageSendInput), agentArgs, n, rounds),
      hand: nsPerCall(
        (x) => {
          const o = x as Record<string, unknown>;
          return (
            typeof o === 'object' &&
            o !== null &&
            typeof o.target === 'string' &&
            typeof o.content === 'string' &&
            (o.allow_cross_target === undefined || typeof o.allow_cross_target === 'boolean')
          );
        },
        agentArgs,
        n,
        rounds,
      ),
    },
    'messages.send': {
      zod: nsPerCall((x) => sendSchema.safeParse(x).success, operatorReqs, n, rounds),
      compiled: nsPerCall(compile(sendSchema), operatorReqs, n, rounds),
    },
  };
  const zodPerSecond = 1e9 / results.message_send.zod;
  const compiledPerSecond = 1e9 / results.message_send.compiled;
  const figures: Figure[] = [
    {
      name: 'message_send arguments: zod safeParse vs the same schema compiled (ajv via the MCP SDK)',
      value: r2(results.message_send.zod),
      unit: 'ns per call',
      baseline: r2(results.message_send.compiled),
      ratio: r2(results.message_send.compiled / results.message_send.zod),
      note: `hand-written check ${r2(results.message_send.hand)} ns; a wake makes one message_send, so the difference is ${r2((results.message_send.zod - results.message_send.compiled) / 1000)} µs per wake`,
    },
    {
      name: 'messages.send request: zod safeParse vs the same schema compiled (ajv via the MCP SDK)',
      value: r2(results['messages.send'].zod),
      unit: 'ns per call',
      baseline: r2(results['messages.send'].compiled),
      ratio: r2(results['messages.send'].compiled / results['messages.send'].zod),
    },
  ];
  return {
    value: Math.round(zodPerSecond),
    baseline: Math.round(compiledPerSecond),
    ratio: r2(zodPerSecond / compiledPerSecond),
    unit: 'message_send argument checks/s (zod; baseline = compiled JSON Schema)',
    nsPerCall: Object.fromEntries(
      Object.entries(results).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([m, ns]) => [m, r2(ns)]))]),
    ),
    calls: n,
    rounds,
    figures,
    machine: machine(),
  };
}
