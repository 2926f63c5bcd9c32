/**
 * The committed Codex protocol types (main/daemon/runtime/codex/generated/) are exactly what the
 * installed CLI generates through scripts/generate-codex-protocol.mjs: a codex upgrade that changes
 * the protocol fails here until `node scripts/generate-codex-protocol.mjs` is run and committed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../../../../../..');
const COMMITTED = join(REPO, 'main/daemon/runtime/codex/generated');

async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return files;
}

describe('generated Codex protocol types', () => {
  let scratch = '';
  afterAll(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));

  it('the committed folder matches what the installed codex CLI generates', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'codex-protocol-drift-'));
    const out = join(scratch, 'protocol');
    const res = spawnSync(process.execPath, [join(REPO, 'scripts/generate-codex-protocol.mjs'), '--out', out], {
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    const [generated, committed] = await Promise.all([tree(out), tree(COMMITTED)]);
    expect(generated.size).toBeGreaterThan(10);
    expect([...committed.keys()].sort()).toEqual([...generated.keys()].sort());
    const differing = [...generated].filter(([name, text]) => committed.get(name) !== text).map(([name]) => name);
    expect(differing).toEqual([]);
  });
});
