/**
 * issue 43 "worktrees on the remote repository": where the daemon's git work on a repository
 * happens. An agent's worktree, the snapshots of its wakes, "changes since base", merge and
 * discard (worktree.ts, snapshot.ts, diff.ts) are the same steps on this machine and on an
 * agent's host; what differs is only how git is started (`GitRunner`, git-cli.ts: the hardened
 * argv and environment are built once) and how the few file-system steps around it are done
 * (`HostFs`). This machine's are here; a host's go over its SSH master connection
 * (hosts/ssh-git.ts).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { LOCAL_GIT_RUNNER, type GitRunner } from './git-cli.js';

/** The file-system steps the git mechanics take besides git itself, on the machine git runs on. */
export interface HostFs {
  /** `path` with its symlinks resolved; a part that does not exist yet is kept as written under its real parent. */
  real(path: string): Promise<string>;
  exists(path: string): Promise<boolean>;
  /** Whether `path` is a folder that holds something. */
  nonEmptyDir(path: string): Promise<boolean>;
  /** A regular file's text (a symlink is not one), or null when there is none. */
  readSmallFile(path: string): Promise<string | null>;
  /** Makes the folders and their parents (private: 0700). */
  mkdir(...paths: string[]): Promise<void>;
  writeFile(path: string, text: string): Promise<void>;
  /** Copies a file with its times (a copy dated now would change what git trusts of it); false when there is none. */
  copyFile(from: string, to: string): Promise<boolean>;
  /** A new private folder under the temporary folder, named from `prefix`. */
  tempDir(prefix: string): Promise<string>;
  /** Removes the file or folder and what it holds (nothing when it is gone). */
  rm(path: string): Promise<void>;
  /** Identity, time and size of each file: a different answer means one of them changed. */
  stamp(paths: readonly string[]): Promise<string>;
}

export interface GitHost {
  /** '' for this machine, else the host's address (keeps caches of two machines apart). */
  readonly key: string;
  readonly runner: GitRunner;
  readonly fs: HostFs;
}

/**
 * An agent's host as the worktree room uses it (issue 43): git there, and the remote user's home
 * (the default worktrees folder and the runtime folders are under it, as beside the data dir here).
 */
export interface RemoteGit {
  readonly git: GitHost;
  home(): Promise<string>;
}

function realSync(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const abs = resolve(path);
    const parent = dirname(abs);
    return parent === abs ? abs : join(realSync(parent), basename(abs));
  }
}

const LOCAL_FS: HostFs = {
  real: (path) => Promise.resolve(realSync(path)),
  exists: (path) => Promise.resolve(existsSync(path)),
  nonEmptyDir: (path) => {
    try {
      return Promise.resolve(readdirSync(path).length > 0);
    } catch {
      return Promise.resolve(false);
    }
  },
  readSmallFile: (path) => {
    try {
      return Promise.resolve(lstatSync(path).isFile() ? readFileSync(path, 'utf8') : null);
    } catch {
      return Promise.resolve(null);
    }
  },
  mkdir: async (...paths) => {
    await Promise.all(paths.map((p) => mkdir(p, { recursive: true, mode: 0o700 })));
  },
  writeFile: (path, text) => writeFile(path, text),
  copyFile: async (from, to) => {
    try {
      await copyFile(from, to);
    } catch {
      return false;
    }
    const st = await stat(from).catch(() => null);
    if (st !== null) await utimes(to, st.atime, st.mtime);
    return true;
  },
  tempDir: (prefix) => mkdtemp(join(tmpdir(), prefix)),
  rm: (path) => rm(path, { recursive: true, force: true }),
  stamp: (paths) =>
    Promise.resolve(
      paths
        .map((p) => {
          try {
            const st = statSync(p);
            return `${p}:${st.ino}:${st.mtimeMs}:${st.size}`;
          } catch {
            return `${p}:none`;
          }
        })
        .join('\0'),
    ),
};

/** This machine. */
export const LOCAL_GIT_HOST: GitHost = { key: '', runner: LOCAL_GIT_RUNNER, fs: LOCAL_FS };
