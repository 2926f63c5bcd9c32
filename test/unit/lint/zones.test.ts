import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** DESIGN.md's zone table, proven against the real lint config: a forbidden import fails lint. */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('zone rules (no-restricted-imports per folder)', () => {
  const forbidden: Array<[string, string]> = [
    ['main/daemon/wake/x.ts', "import { app } from 'electron';"],
    ['main/daemon/x.ts', "import Store from 'electron-store';"],
    ['main/daemon/wake/x.ts', "import { x } from '../../serve/server.js';"],
    ['main/daemon/x.ts', "import { x } from '../app/window.js';"],
    ['main/serve/x.ts', "import { app } from 'electron';"],
    ['renderer/src/x.ts', "import { readFileSync } from 'node:fs';"],
    ['renderer/src/x.ts', "import { readFileSync } from 'fs';"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron';"],
    ['renderer/src/x.ts', "import { x } from '../../main/daemon/index.js';"],
    ['shared/x.ts', "import { join } from 'node:path';"],
    ['shared/x.ts', "import { app } from 'electron';"],
    ['shared/x.ts', "import React from 'react';"],
    ['shared/api/x.ts', "import { x } from '../../main/daemon/index.js';"],
    ['preload/x.ts', "import { readFileSync } from 'node:fs';"],
    ['preload/x.ts', "import { x } from '../main/daemon/index.js';"],
    ['main/app/x.ts', "import React from 'react';"],
  ];
  it.each(forbidden)('%s: %s fails lint', async (file, code) => {
    const messages = await restrictedImports(file, code);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatch(/DESIGN\.md zones/);
  });

  const allowed: Array<[string, string]> = [
    ['main/daemon/x.ts', "import { DatabaseSync } from 'node:sqlite';"],
    ['main/daemon/wake/x.ts', "import { parseTarget } from '../../../shared/target.js';"],
    ['main/daemon/wake/x.ts', "import { x } from '../store/store.js';"],
    ['main/serve/x.ts', "import { x } from '../daemon/index.js';"],
    ['main/app/x.ts', "import { app } from 'electron';"],
    ['main/index.ts', "import { x } from './daemon/index.js';"],
    ['renderer/src/x.ts', "import { useState } from 'react';"],
    ['renderer/src/x.ts', "import { x } from '../../shared/target.js';"],
    ['shared/api/x.ts', "import { z } from 'zod';"],
    ['shared/api/x.ts', "import { x } from '../target.js';"],
    ['preload/x.ts', "import { contextBridge } from 'electron';"],
    ['preload/x.ts', "import { x } from '../shared/api/contract.js';"],
  ];
  it.each(allowed)('%s: %s passes', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
