/** issue 30: where the demo agents' thread is loaded from, in a source checkout and in the build. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoWorkerEntry } from '../../../../../../main/daemon/runtime/demo/demo-thread.js';
import { makeTempDir } from '../../../../../fixtures/temp-dir.js';

const dir = makeTempDir('agentteam-demo-entry-');
afterAll(() => dir.remove());

describe('demoWorkerEntry', () => {
  it('a source checkout: demo-worker.ts beside demo-thread.ts', () => {
    expect(demoWorkerEntry('file:///repo/main/daemon/runtime/demo/demo-thread.ts').href).toBe(
      'file:///repo/main/daemon/runtime/demo/demo-worker.ts',
    );
    // This very checkout has it.
    expect(demoWorkerEntry().pathname).toMatch(/main\/daemon\/runtime\/demo\/demo-worker\.ts$/);
  });

  it('the build: out/main/demo-worker.js, from the entry beside it or from a shared chunk one folder down', () => {
    const main = join(dir.path, 'out', 'main');
    mkdirSync(join(main, 'chunks'), { recursive: true });
    writeFileSync(join(main, 'demo-worker.js'), '');
    const worker = pathToFileURL(join(main, 'demo-worker.js')).href;
    expect(demoWorkerEntry(pathToFileURL(join(main, 'chunks', 'daemon-abc.js')).href).href).toBe(worker);
    expect(demoWorkerEntry(pathToFileURL(join(main, 'cli.js')).href).href).toBe(worker);
  });
});
