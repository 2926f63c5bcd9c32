import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN.md's zone table, proven against the real lint config: an import that leaves its zone fails lint,
 * whether it is static, re-exported, dynamic or a require, and whether it climbs into another folder or
 * names a package nobody listed (allowlists, scripts/lint/zone-imports.js).
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function zoneMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'agentteam/zone-imports').map((m) => m.message);
}

describe('zone rules (allowlists per folder)', () => {
  /** The five leaks the first lint config let through (issue 13), then the older cases. */
  const leaks: Array<[string, string, RegExp]> = [
    ['main/daemon/x.ts', "import { boot } from '../index.js';", /reaches main\/index\.js/],
    ['main/daemon/wake/x.ts', "const { app } = await import('electron');", /'electron' is not an allowed package/],
    ['main/index.ts', "import { serve } from './serve/serve-command.js';", /reaches main\/serve\/serve-command\.js/],
    ['renderer/src/x.ts', "import remote from '@electron/remote';", /'@electron\/remote' is not an allowed package/],
  ];
  it.each(leaks)('leak closed — %s: %s', async (file, code, why) => {
    const messages = await zoneMessages(file, code);
    expect(messages.join('\n')).toMatch(why);
    expect(messages[0]).toMatch(/DESIGN\.md zones/);
  });

  const forbidden: Array<[string, string]> = [
    ['main/daemon/wake/x.ts', "import { app } from 'electron';"],
    ['main/daemon/x.ts', "import Store from 'electron-store';"],
    ['main/daemon/x.ts', "export { app } from 'electron';"],
    ['main/daemon/x.ts', "export * from '../app/window.js';"],
    ['main/daemon/x.ts', "const e = require('electron');"],
    ['main/daemon/x.ts', 'const e = await import(`electron`);'],
    ['main/daemon/x.ts', "type App = import('electron').App;"],
    ['renderer/src/x.ts', "import fs = require('node:fs');"],
    ['main/daemon/wake/x.ts', "import { x } from '../../serve/server.js';"],
    ['main/daemon/x.ts', "import { x } from '../app/window.js';"],
    ['main/daemon/x.ts', "import { x } from '../../renderer/src/app.js';"],
    ['main/daemon/x.ts', "import React from 'react';"],
    ['main/serve/x.ts', "import { app } from 'electron';"],
    ['main/serve/x.ts', "import { x } from '../app/desktop-app.js';"],
    ['main/serve/x.ts', "import { x } from '../index.js';"],
    ['main/app/x.ts', "import React from 'react';"],
    ['main/app/x.ts', "import { x } from '../serve/cli.js';"],
    ['main/app/x.ts', "import { x } from '../../renderer/src/app.js';"],
    ['renderer/src/x.ts', "import { readFileSync } from 'node:fs';"],
    ['renderer/src/x.ts', "import { readFileSync } from 'fs';"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['renderer/src/x.ts', "import { x } from '../../main/daemon/index.js';"],
    ['renderer/src/x.ts', "const fs = await import('node:fs');"],
    ['shared/x.ts', "import { join } from 'node:path';"],
    ['shared/x.ts', "import { app } from 'electron';"],
    ['shared/x.ts', "import React from 'react';"],
    ['shared/api/x.ts', "import { x } from '../../main/daemon/index.js';"],
    ['preload/x.ts', "import { readFileSync } from 'node:fs';"],
    ['preload/x.ts', "import { x } from '../main/daemon/index.js';"],
    ['preload/x.ts', "import { z } from 'zod';"],
  ];
  it.each(forbidden)('%s: %s fails lint', async (file, code) => {
    const messages = await zoneMessages(file, code);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatch(/DESIGN\.md zones/);
  });

  it('a computed module specifier fails lint in a zone (it cannot be checked)', async () => {
    const messages = await zoneMessages('main/daemon/x.ts', "const name = 'electron'; await import(name);");
    expect(messages.join('\n')).toMatch(/computed module specifier cannot be checked/);
  });

  const allowed: Array<[string, string]> = [
    ['main/daemon/x.ts', "import { DatabaseSync } from 'node:sqlite';"],
    ['main/daemon/x.ts', "import { createHash } from 'crypto';"],
    ['main/daemon/x.ts', "const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');"],
    ['main/daemon/wake/x.ts', "import { parseTarget } from '../../../shared/target.js';"],
    ['main/daemon/wake/x.ts', "import { x } from '../store/store.js';"],
    ['main/serve/x.ts', "import { x } from '../daemon/index.js';"],
    ['main/serve/x.ts', "import { WebSocketServer } from 'ws';"],
    ['main/app/x.ts', "import { app } from 'electron';"],
    ['main/app/x.ts', "import log from 'electron-log/main';"],
    ['main/index.ts', "import { x } from './daemon/index.js';"],
    ['main/index.ts', "import { x } from './app/desktop-app.js';"],
    ['renderer/src/x.ts', "import { useState } from 'react';"],
    ['renderer/src/x.ts', "import { createRoot } from 'react-dom/client';"],
    ['renderer/src/x.ts', "import { x } from '../../shared/target.js';"],
    ['shared/api/x.ts', "import { z } from 'zod';"],
    ['shared/api/x.ts', "import { x } from '../target.js';"],
    ['preload/x.ts', "import { contextBridge } from 'electron';"],
    ['preload/x.ts', "import { x } from '../shared/api/contract.js';"],
    ['test/unit/x.test.ts', "import { app } from 'electron';"],
  ];
  it.each(allowed)('%s: %s passes', async (file, code) => {
    expect(await zoneMessages(file, code)).toEqual([]);
  });
});
