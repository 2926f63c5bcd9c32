/**
 * `npm run bench -- NAME`: runs one benchmark with its raw baseline in the same process run.
 * Its last output line is one JSON object {"bench","value","baseline","ratio","unit",...}
 * with ratio = value/baseline oriented so that higher is better (DESIGN.md "Benchmarks").
 */
const benches: Record<string, () => Promise<Record<string, unknown>>> = {};

const name = process.argv[2];
const bench = name === undefined ? undefined : benches[name];
if (bench === undefined) {
  console.error(`bench: unknown benchmark "${name ?? ''}"; one of: ${Object.keys(benches).join(', ') || '(none yet)'}`);
  process.exit(2);
}
console.log(JSON.stringify(await bench()));
