/**
 * `npm run bench -- NAME`: runs `bench/NAME.bench.ts`, one benchmark with its raw baseline in
 * the same process run. Its last output line is one JSON object
 * {"bench","value","baseline","ratio","unit",...} with ratio = value/baseline oriented so that
 * higher is better (DESIGN.md "Benchmarks"). Run with --expose-gc (the npm script does).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length));
const name = process.argv[2];
if (name === undefined || !names.includes(name)) {
  console.error(`bench: unknown benchmark "${name ?? ''}"; one of: ${names.join(', ') || '(none yet)'}`);
  process.exit(2);
}
const mod = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as {
  default: (args: string[]) => Promise<Record<string, unknown>>;
};
const result = await mod.default(process.argv.slice(3));
console.log(JSON.stringify({ bench: name, ...result }));
