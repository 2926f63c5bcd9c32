/**
 * issue 14: "always" rules have ONE source — agentteam.json as the config source has it now. A rule
 * added by an "always" answer and then removed (by a Revoke or by editing the file by hand) stops
 * answering at once: the next matching request asks the operator again.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VirtualTimeScheduler, filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApprovalService } from '../../../../../main/daemon/approvals/approval-service.js';
import { addAllowRule } from '../../../../../main/daemon/config/allow-rules.js';
import { ConfigSource } from '../../../../../main/daemon/config/config-source.js';
import type { ApprovalAsk } from '../../../../../main/daemon/runtime/approval-port.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const ask: ApprovalAsk = {
  kind: 'command',
  tool: 'Bash',
  summary: 'npm test',
  detail: 'npm test',
  rule: 'Bash(npm test)',
};
const origin = { agentId: 'claude', runtime: 'claude-code', turnId: 't1', wakeTokens: ['w1'] };

let dir: TempDir;
let store: Store;
let source: ConfigSource;
beforeEach(() => {
  dir = makeTempDir('agentteam-rules-source-');
  writeFileSync(
    join(dir.path, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'claude', name: 'Claude', runtime: 'claude-code' }] }, null, 2),
  );
  source = ConfigSource.open(dir.path);
  store = Store.open(dir.path);
});
afterEach(() => {
  source.close();
  store.close();
  dir.remove();
});

it('a rule added by "always" and then deleted from agentteam.json by hand asks again on the next request', async () => {
  const approvals = new ApprovalService({
    table: store.approvals,
    policyOf: (id) => {
      const a = source.config.agents.find((x) => x.id === id);
      return { approvalTimeoutSeconds: a?.approvalTimeoutSeconds ?? 900, allow: a?.allow ?? [] };
    },
    persistRule: (id, rule) => addAllowRule(source, id, rule),
    scheduler: new VirtualTimeScheduler(),
  });
  const first = approvals.request(origin, ask);
  approvals.answer(approvals.list({ status: 'pending' })[0]!.id, 'allow', 'always');
  await expect(first).resolves.toMatchObject({ decision: 'allow', scope: 'always' });
  // Standing: answered at once, never asked.
  await expect(approvals.request(origin, ask)).resolves.toMatchObject({ scope: 'always', status: 'allowed' });
  expect(approvals.list({ status: 'pending' })).toHaveLength(0);

  // The person deletes the rule in their editor; the watch picks it up (an awaited state change, no sleep).
  source.watch({ debounceMs: 10 });
  const file = join(dir.path, 'agentteam.json');
  const removed = firstValueFrom(source.state$.pipe(filter((s) => s.loaded.config.agents[0]?.allow.length === 0)));
  writeFileSync(file, readFileSync(file, 'utf8').replace(/"allow": \[[^\]]*\]/, '"allow": []'));
  await removed;

  const again = approvals.request(origin, ask);
  const pending = approvals.list({ status: 'pending' });
  expect(pending).toHaveLength(1);
  expect(pending[0]).toMatchObject({ rule: 'Bash(npm test)', status: 'pending' });
  approvals.answer(pending[0]!.id, 'deny');
  await expect(again).resolves.toMatchObject({ decision: 'deny' });
  approvals.dispose();
});
