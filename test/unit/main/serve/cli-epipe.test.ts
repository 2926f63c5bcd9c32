/**
 * issue 40 item 9: `agentteam wakes | head` ended in an EPIPE stack trace. The real CLI (built,
 * through bin/agentteam.mjs) writing into a pipe whose reader has gone exits quietly.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

it.skipIf(!existsSync(join(ROOT, 'out', 'main', 'cli.js')))(
  'a reader that left early: no stack trace, exit 0',
  async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'agentteam.mjs'), '--help'], { cwd: ROOT });
    // The reader is gone before the CLI writes its first line (as `| head -0`, or `head` already done).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  },
  30_000,
);
