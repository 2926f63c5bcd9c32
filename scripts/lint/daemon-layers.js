// @ts-check
/**
 * The daemon's rooms in order (STYLE.md habit 16: imports point down, and a tool says so). A file
 * in main/daemon/ may import its own room and the rooms BELOW it, never one above; rooms that share
 * a layer are independent (neither imports the other). `import type`, `export … from`, `import()`,
 * `require()` and `import('…').T` all count: a type is a dependency too. Relative specifiers are
 * resolved by path arithmetic (module-specifiers.js); a computed one is zone-imports.js's error.
 *
 * A room is a folder of main/daemon/ with everything below it (runtime/claude-code/ is the runtime
 * room), or one of the top-level leaf files named below; every other top-level file
 * (daemon.ts, index.ts, daemon-types.ts and the root's helpers) is the root. A folder that is in no
 * layer fails lint until it is placed here.
 *
 * The order is STYLE.md's (root → services → runtime → prompt → mcp → api → channels → store →
 * wake → watchdog/config/bus → delivery) where the code holds it, and differs where it cannot:
 *  - bus is below delivery, not above it. The issue says the bus must not import delivery's words
 *    (issue 23: "the delivery words the bus carries under bus/"), and STYLE's own rule — "a word two
 *    rooms share belongs to the lower one" — puts them in bus/delivery-words.ts. So delivery imports
 *    the bus (delivery-tracker.ts emits on it) and the bus imports nothing.
 *  - watchdog, config and bus are not one layer: the watchdog subscribes to the bus and sends
 *    beacons through delivery (beacon-router.ts), so watchdog → delivery → bus; config imports
 *    nothing of the daemon but the log port and sits with the leaves.
 *  - issue 39's capability rooms (usage/, teams/, worktrees/; issue 42's resources/) share the layer just under services:
 *    each holds its capability's service, wiring and API port, and none imports another (a rule
 *    one capability needs from another arrives as an event or a port the root passes in).
 *  - the rooms STYLE does not name are placed as low as their imports allow: approvals just above
 *    runtime (approval-service.ts answers runtime/approval-port.ts); channels/ is STYLE's "channels" (issue 39:
 *    the ChannelPlugin contract, its registry, and one folder per channel, Telegram the first);
 *    alerts below the channels (they import delivery, wake and watchdog); settings just above the
 *    config it edits; metrics, router, diagnostics.ts and project-root.ts are leaves (wake counts
 *    into metrics/, so metrics/ cannot reach wake or store); daemon-log.ts, the log port every
 *    room takes, is the floor. git/ (the one git runner, issue 26) is a leaf too.
 */
import { moduleSpecifierVisitors, reachedPath, repoPathOf } from './module-specifiers.js';

const DAEMON = 'main/daemon';
const ROOT = 'root';

/** Top to bottom. Each entry is one layer: one room, or several independent rooms. */
export const DAEMON_LAYERS = [
  [ROOT],
  ['services'],
  ['usage', 'teams', 'worktrees', 'resources'],
  ['approvals', 'hosts'],
  ['runtime'],
  ['prompt'],
  ['mcp'],
  ['api'],
  ['channels'],
  ['alerts'],
  ['store'],
  ['wake'],
  ['watchdog'],
  ['delivery'],
  ['settings'],
  ['bus', 'config', 'metrics', 'router', 'git', 'diagnostics.ts', 'project-root.ts'],
  ['daemon-log.ts'],
];

const ORDER = DAEMON_LAYERS.map((layer) => (layer.length > 1 ? `{${layer.join(', ')}}` : layer[0])).join(' → ');
const RANK = new Map(DAEMON_LAYERS.flatMap((layer, rank) => layer.map((room) => [room, rank])));

/**
 * The room of a repo-relative path inside main/daemon/ (the path may name a `.js` specifier of a
 * `.ts` file), or undefined outside it. A path of `main/daemon/` itself (`../index.js`) is the root.
 */
export function roomOf(path) {
  if (path === DAEMON) return ROOT;
  if (!path.startsWith(`${DAEMON}/`)) return undefined;
  const [first = '', ...rest] = path.slice(DAEMON.length + 1).split('/');
  if (rest.length > 0 || RANK.has(first)) return first;
  const file = `${first.replace(/\.[cm]?[jt]s$/, '')}.ts`;
  return RANK.has(file) ? file : ROOT;
}

/** Why the file `rel` may not import `spec`, or null when the import points down (or leaves the daemon). */
export function layerViolation(rel, spec) {
  const from = roomOf(rel);
  const target = reachedPath(rel, spec);
  if (from === undefined || target === null) return null;
  const to = roomOf(target);
  if (to === undefined || to === from) return null;
  const placed = (room) => `main/daemon/${room === ROOT ? '*.ts (root)' : room}`;
  if (!RANK.has(to))
    return `'${spec}' reaches ${placed(to)}, which is in no layer: place it in DAEMON_LAYERS (scripts/lint/daemon-layers.js)`;
  const [a, b] = [RANK.get(from), RANK.get(to)];
  if (a === undefined || b === undefined || a < b) return null;
  const how = a === b ? 'shares a layer with' : 'is above';
  return `${placed(from)} may not import ${placed(to)} ('${spec}'): ${placed(to)} ${how} it. Imports point down the daemon's layers: ${ORDER}`;
}

/** @type {import('eslint').Rule.RuleModule} */
export const daemonLayersRule = {
  meta: {
    type: 'problem',
    docs: { description: "The daemon's rooms in order: a file imports its own room and the rooms below it" },
    schema: [],
  },
  create(context) {
    const rel = repoPathOf(context);
    const room = roomOf(rel);
    if (room === undefined) return {};
    const report = (node, message) => context.report({ node, message: `${message} (STYLE.md habit 16).` });
    return {
      Program: (node) => {
        if (!RANK.has(room))
          report(node, `main/daemon/${room} is in no layer: place it in DAEMON_LAYERS (scripts/lint/daemon-layers.js)`);
      },
      ...moduleSpecifierVisitors((node, spec) => {
        const why = layerViolation(rel, spec);
        if (why !== null) report(node, why);
      }),
    };
  },
};
