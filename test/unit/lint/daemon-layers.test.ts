import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * STYLE.md habit 16 against the real lint config: inside main/daemon/ a file imports its own room
 * and the rooms below it (scripts/lint/daemon-layers.js), by every way a module is loaded.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function layerMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'agentteam/daemon-layers').map((m) => m.message);
}

describe("the daemon's layer rule", () => {
  /** The upward imports issue 23 removed, then other pairs up the order and across one layer. */
  const upward: Array<[string, string, string, string]> = [
    ['main/daemon/bus/hook-events.ts', "import type { AckStatus } from '../delivery/channel.js';", 'bus', 'delivery'],
    [
      'main/daemon/api/daemon-api.ts',
      "import type { ConversationService } from '../services/conversation-service.js';",
      'api',
      'services',
    ],
    [
      'main/daemon/api/daemon-api.ts',
      "import type { ApprovalService } from '../approvals/approval-service.js';",
      'api',
      'approvals',
    ],
    ['main/daemon/channels/telegram/x.ts', "import { x } from '../../api/api-ports.js';", 'channels', 'api'],
    ['main/daemon/wake/x.ts', "import { Store } from '../store/index.js';", 'wake', 'store'],
    [
      'main/daemon/delivery/x.ts',
      "import { BeaconRouter } from '../watchdog/beacon-router.js';",
      'delivery',
      'watchdog',
    ],
    ['main/daemon/runtime/codex/x.ts', "import { x } from '../../services/agent-session.js';", 'runtime', 'services'],
    ['main/daemon/store/tables/x.ts', "import { x } from '../../api/api-mappers.js';", 'store', 'api'],
    [
      'main/daemon/config/x.ts',
      "import { DaemonSettings } from '../settings/daemon-settings.js';",
      'config',
      'settings',
    ],
    ['main/daemon/wake/x.ts', "import { createDaemon } from '../daemon.js';", 'wake', '*.ts (root)'],
    ['main/daemon/daemon-log.ts', "import { x } from './config/load-config.js';", 'daemon-log.ts', 'config'],
  ];
  it.each(upward)('%s: %s fails lint', async (file, code, from, to) => {
    const [message, ...more] = await layerMessages(file, code);
    expect(more).toEqual([]);
    expect(message).toContain(`main/daemon/${from} may not import main/daemon/${to}`);
    expect(message).toContain('is above it');
    expect(message).toContain('root → services → {usage, teams, worktrees, resources} → {approvals, hosts} → runtime');
    expect(message).toMatch(/STYLE\.md habit 16/);
  });

  it('rooms sharing a layer import neither each other', async () => {
    const [message] = await layerMessages('main/daemon/bus/x.ts', "import { x } from '../config/load-config.js';");
    expect(message).toContain('main/daemon/bus may not import main/daemon/config');
    expect(message).toContain('shares a layer with it');
    expect(await layerMessages('main/daemon/metrics/x.ts', "import { x } from '../diagnostics.js';")).toHaveLength(1);
  });

  /** issue 39: the capability rooms share one layer under services and never import each other. */
  const rooms: Array<[string, string, string]> = [
    ['usage', 'teams', "import type { TeamService } from '../teams/team-service.js';"],
    ['usage', 'worktrees', "import { x } from '../worktrees/worktree-service.js';"],
    ['teams', 'usage', "import type { UsageService } from '../usage/usage-service.js';"],
    ['teams', 'worktrees', "import { x } from '../worktrees/wake-changes.js';"],
    ['worktrees', 'usage', "import { x } from '../usage/usage-pause-service.js';"],
    ['worktrees', 'teams', "import { x } from '../teams/team-board.js';"],
    // issue 42: the resources room (memory per agent, sleep) is one of them.
    ['resources', 'usage', "import { x } from '../usage/usage-pause-service.js';"],
    ['usage', 'resources', "import { x } from '../resources/agent-costs.js';"],
  ];
  it.each(rooms)('the %s room may not import the %s room', async (from, to, code) => {
    const [message, ...more] = await layerMessages(`main/daemon/${from}/x.ts`, code);
    expect(more).toEqual([]);
    expect(message).toContain(`main/daemon/${from} may not import main/daemon/${to}`);
    expect(message).toContain('shares a layer with it');
  });

  it('a capability room imports nothing above it; services and the root may use it', async () => {
    const [up] = await layerMessages('main/daemon/usage/x.ts', "import { x } from '../services/turn-deadlines.js';");
    expect(up).toContain('main/daemon/usage may not import main/daemon/services');
    expect(
      await layerMessages('main/daemon/services/x.ts', "import { x } from '../worktrees/worktree-contract.js';"),
    ).toEqual([]);
    expect(await layerMessages('main/daemon/daemon.ts', "import { x } from './teams/team-service.js';")).toEqual([]);
    expect(await layerMessages('main/daemon/teams/x.ts', "import { x } from '../wake/wake-lifecycle.js';")).toEqual([]);
  });

  /** An upward import is one whichever way the module is loaded. */
  const ways: Array<[string, string]> = [
    ['import type', "import type { HookBus } from '../watchdog/x.js';"],
    ['import type specifier', "import { type X } from '../watchdog/x.js';"],
    ['dynamic import()', "const m = await import('../watchdog/x.js');"],
    ['template import()', 'const m = await import(`../watchdog/x.js`);'],
    ['export … from', "export { x } from '../watchdog/x.js';"],
    ['export * from', "export * from '../watchdog/x.js';"],
    ['require()', "const m = require('../watchdog/x.js');"],
    ['import x = require()', "import m = require('../watchdog/x.js');"],
    ['import type in a type position', "type T = import('../watchdog/x.js').T;"],
  ];
  it.each(ways)('%s is checked', async (_way, code) => {
    const messages = await layerMessages('main/daemon/delivery/x.ts', code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('main/daemon/delivery may not import main/daemon/watchdog');
  });

  const allowed: Array<[string, string]> = [
    // down the order
    ['main/daemon/delivery/delivery-tracker.ts', "import type { HookBus } from '../bus/hook-bus.js';"],
    ['main/daemon/delivery/channel.ts', "import type { AckStatus } from '../bus/delivery-words.js';"],
    ['main/daemon/services/x.ts', "import type { Store } from '../store/index.js';"],
    ['main/daemon/services/x.ts', "const m = await import('../wake/wake-lifecycle.js');"],
    ['main/daemon/watchdog/beacon-router.ts', "import type { Channel } from '../delivery/channel.js';"],
    ['main/daemon/channels/telegram/x.ts', "import { x } from '../../watchdog/silence-watchdog.js';"],
    ['main/daemon/api/api-events.ts', "import type { Store } from '../store/index.js';"],
    ['main/daemon/runtime/claude-code/x.ts', "import { x } from '../../mcp/mcp-server.js';"],
    ['main/daemon/store/tables/x.ts', "import { x } from '../../wake/pending-delivery.js';"],
    ['main/daemon/wake/x.ts', "import type { WakeMetrics } from '../metrics/wake-metrics.js';"],
    ['main/daemon/config/x.ts', "import type { DaemonLog } from '../daemon-log.js';"],
    ['main/daemon/daemon.ts', "import { ConversationService } from './services/conversation-service.js';"],
    ['main/daemon/daemon-types.ts', "import type { AgentCliLauncher } from './runtime/agent-cli-shim.js';"],
    // the same room
    ['main/daemon/wake/x.ts', "import { x } from './wake-timeline.js';"],
    ['main/daemon/runtime/codex/x.ts', "import { x } from '../runtime-adapter.js';"],
    ['main/daemon/runtime/runtime-factory.ts', "import { x } from './codex/codex-driver.js';"],
    ['main/daemon/store/tables/x.ts', "import { x } from '../store-records.js';"],
    ['main/daemon/index.ts', "import { createDaemon } from './daemon.js';"],
    // outside the daemon: the zones decide (zone-imports.js)
    ['main/daemon/wake/x.ts', "import { x } from '../../../shared/target.js';"],
    ['main/daemon/wake/x.ts', "import { Subject } from 'rxjs';"],
    ['main/serve/x.ts', "import { x } from '../daemon/services/conversation-service.js';"],
  ];
  it.each(allowed)('%s: %s passes', async (file, code) => {
    expect(await layerMessages(file, code)).toEqual([]);
  });

  it('a folder in no layer fails lint until it is placed', async () => {
    expect((await layerMessages('main/daemon/roster/x.ts', '')).join('\n')).toContain(
      'main/daemon/roster is in no layer: place it in DAEMON_LAYERS',
    );
    expect(
      (await layerMessages('main/daemon/services/x.ts', "import { x } from '../roster/agent-roster.js';")).join('\n'),
    ).toContain("'../roster/agent-roster.js' reaches main/daemon/roster, which is in no layer");
  });

  it('every folder of main/daemon/ is placed', async () => {
    const folders = readdirSync('main/daemon', { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    for (const folder of folders)
      expect(await layerMessages(`main/daemon/${folder.name}/x.ts`, ''), folder.name).toEqual([]);
  });
});
