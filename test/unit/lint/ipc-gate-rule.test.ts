import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** STYLE.md habit 4, enforced by lint: only main/app/ipc-gate.ts imports `ipcMain`. */
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'agentteam/zone-imports')
    .map((m) => m.message);
}

describe('only the IPC gate imports ipcMain', () => {
  it.each([
    ['main/app/notifications.ts', "import { ipcMain } from 'electron';"],
    ['main/app/x.ts', "import { app, ipcMain } from 'electron';"],
    ['main/index.ts', "import { ipcMain as m } from 'electron';"],
    // issue 13: the same API through electron's main-process entry point.
    ['main/app/x.ts', "import { ipcMain } from 'electron/main';"],
  ])('%s: %s fails lint', async (file, code) => {
    expect((await restricted(file, code)).join('\n')).toMatch(/only main\/app\/ipc-gate\.ts may import ipcMain/);
  });

  it('the gate itself may', async () => {
    expect(await restricted('main/app/ipc-gate.ts', "import { BrowserWindow, ipcMain } from 'electron';")).toEqual([]);
  });

  it('the zone rules still hold in main/app next to the ipcMain rule (and in the gate)', async () => {
    expect((await restricted('main/app/x.ts', "import React from 'react';")).join('\n')).toMatch(/DESIGN\.md zones/);
    expect((await restricted('main/app/ipc-gate.ts', "import React from 'react';")).join('\n')).toMatch(
      /DESIGN\.md zones/,
    );
    expect(await restricted('main/app/x.ts', "import { app, BrowserWindow } from 'electron';")).toEqual([]);
  });
});
