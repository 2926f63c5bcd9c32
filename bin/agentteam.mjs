#!/usr/bin/env node
// The `agentteam` bin runs on Node 24 (node:sqlite). On an older Node, re-run this same
// command with the project's pinned Node (the `node@24` package) when it is installed.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { quietKnownWarnings } from './known-warnings.mjs';

quietKnownWarnings();

const here = dirname(fileURLToPath(import.meta.url));
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  let node24;
  try {
    node24 = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node');
  } catch {
    node24 = undefined;
  }
  if (node24 === undefined || !existsSync(node24)) {
    process.stderr.write(
      `agentteam: needs Node 24 or newer (this is ${process.version}); run "npm install" in the project first.\n`,
    );
    process.exit(1);
  }
  // Signals are forwarded and the child's exit is ours: stopping the bin stops the daemon it runs.
  const { runForwardingSignals } = await import('./forward-signals.mjs');
  runForwardingSignals(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)]);
} else {
  const cli = join(here, '..', 'out', 'main', 'cli.js');
  if (!existsSync(cli)) {
    process.stderr.write('agentteam: the app is not built yet; run "npm run build" first.\n');
    process.exit(1);
  }
  await import(pathToFileURL(cli).href);
}
