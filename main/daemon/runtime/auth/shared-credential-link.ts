/**
 * Points an agent's runtime at the person's ONE credential file by a symlink (issue 15), for
 * the CLIs that keep their login in a single file inside a dir that also holds everything
 * else (Codex `CODEX_HOME`, OpenCode's data dir): the agent keeps its own dir (config, MCP
 * servers, sessions), only `auth.json` is the person's.
 *
 * Why a link and never a copy: the login's refresh token rotates; a copy refreshed by one
 * process logs out the others and the person's own CLI (openai/codex#6498, #9634). Both CLIs
 * write through the link (checked with strace, see README "Sign-in"): Codex resolves it and
 * renames a temp file in the person's dir under its `auth.json.lock`; OpenCode truncates and
 * rewrites the target in place. Nothing here reads the credential.
 */
import { lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';

/** Makes `linkPath` a symlink to `personFile` (replacing a stale file or link); `null` removes it. */
export function linkPersonCredential(linkPath: string, personFile: string | null): void {
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(linkPath);
  } catch {
    existing = undefined;
  }
  if (existing !== undefined) {
    if (personFile !== null && existing.isSymbolicLink() && readlinkSync(linkPath) === personFile) return;
    // A regular file here would be a private copy: never keep one (one credential store).
    rmSync(linkPath, { force: true });
  }
  if (personFile === null) return;
  mkdirSync(dirname(linkPath), { recursive: true, mode: 0o700 });
  symlinkSync(personFile, linkPath);
}
