/**
 * The data dir holds credentials (serve and MCP tokens, the MCP config files the runtimes read,
 * provider keys in agentteam.json, the conversations): only its owner may read it (issue 16
 * "Files"). The dir is 0700 and what the daemon writes in it is 0600 (files) or 0700 (dirs),
 * also when the dir already existed with looser modes. agentteam.json is the person's file:
 * never rewritten or re-moded, only warned about once per start when others can read it.
 *
 * POSIX modes only: on Windows the user profile's ACLs apply and chmod cannot express them.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE } from './config/load-config.js';
import type { DaemonLog } from './daemon-log.js';

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
/** Per-agent runtime dirs: the daemon writes their top level (session.json, MCP config); the CLIs own what is deeper. */
const RUNTIMES_DIR = 'runtimes';

/** Creates the data dir if needed and makes it 0700 (before anything is written in it). */
export function securePrivateDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (platform !== 'win32') chmodSync(dir, PRIVATE_DIR);
}

/**
 * Tightens what the daemon wrote in the data dir (store, WAL/SHM, lock, tokens, settings,
 * serve.json, runtime dirs and their top-level files) and warns when agentteam.json is
 * readable by others. Returns the paths it changed (tests, logs).
 */
export function tightenDataDir(
  dataDir: string,
  options: { readonly log?: DaemonLog; readonly platform?: NodeJS.Platform } = {},
): string[] {
  if ((options.platform ?? process.platform) === 'win32') return [];
  const changed: string[] = [];
  securePrivateDir(dataDir);
  for (const name of safeList(dataDir)) {
    const path = join(dataDir, name);
    if (name === CONFIG_FILE) {
      const mode = modeOf(path);
      if (mode !== null && (mode & 0o077) !== 0)
        options.log?.warn(
          `${path} can be read by other users of this computer and may hold provider keys; run "chmod 600 ${path}"`,
          { file: path, mode: `0${mode.toString(8)}` },
        );
      continue;
    }
    tighten(path, changed);
    if (name === RUNTIMES_DIR)
      for (const agent of safeList(path)) {
        const agentDir = join(path, agent);
        tighten(agentDir, changed);
        for (const entry of safeList(agentDir)) tighten(join(agentDir, entry), changed);
      }
  }
  return changed;
}

function tighten(path: string, changed: string[]): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return; // gone meanwhile
  }
  if (st.isSymbolicLink()) return; // never follow a link out of the data dir
  const want = st.isDirectory() ? PRIVATE_DIR : PRIVATE_FILE;
  // Keep an owner's execute bit on files (nothing here should have one, but never break a file).
  const target = st.isDirectory() ? want : want | (st.mode & 0o100);
  if ((st.mode & 0o777) === target) return;
  try {
    chmodSync(path, target);
    changed.push(path);
  } catch {
    // not ours to change (another owner): left as it is
  }
}

function safeList(dir: string): string[] {
  try {
    return lstatSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}

function modeOf(path: string): number | null {
  try {
    return lstatSync(path).mode & 0o777;
  } catch {
    return null;
  }
}
