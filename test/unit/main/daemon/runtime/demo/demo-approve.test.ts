/** issue 41: the demo's approved write stays a regular file inside its workspace. */
import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEMO_FILE,
  DEMO_FILE_LINES,
  readBefore,
  writeDemoFile,
} from '../../../../../../main/daemon/runtime/demo/demo-approve.js';

let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'demo-approve-'));
  workspace = join(root, 'workspace');
  outside = join(root, 'outside.txt');
  await mkdir(workspace);
  await writeFile(outside, 'precious\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('demo /approve write', () => {
  it('writes the file inside the workspace', async () => {
    expect(await writeDemoFile(workspace)).toBeNull();
    expect(await readFile(join(workspace, DEMO_FILE), 'utf8')).toBe(`${DEMO_FILE_LINES.join('\n')}\n`);
  });

  it('replaces an existing regular file entirely', async () => {
    await writeFile(join(workspace, DEMO_FILE), 'x'.repeat(1000));
    expect(await writeDemoFile(workspace)).toBeNull();
    expect(await readFile(join(workspace, DEMO_FILE), 'utf8')).toBe(`${DEMO_FILE_LINES.join('\n')}\n`);
  });

  it('refuses a symlink out of the workspace and leaves its target alone; the ask never shows the target', async () => {
    await symlink(outside, join(workspace, DEMO_FILE));
    expect(await readBefore(join(workspace, DEMO_FILE))).toBeNull();
    expect(await writeDemoFile(workspace)).toMatch(/is a symbolic link; the demo writes only a regular file/);
    expect(await readFile(outside, 'utf8')).toBe('precious\n');
  });

  it('refuses a hard link to a file elsewhere before changing a byte', async () => {
    await link(outside, join(workspace, DEMO_FILE));
    expect(await writeDemoFile(workspace)).toMatch(/is linked to a file elsewhere/);
    expect(await readFile(outside, 'utf8')).toBe('precious\n');
  });
});
