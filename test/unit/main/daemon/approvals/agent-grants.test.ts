/**
 * issue 29 "Rights only the operator gives": the "always" grants are the daemon's (the real store),
 * listed in agentteam.json for reading (the real config source, watched). A rule that appears in
 * the file by a plain write — what an agent able to edit the file would do — is shown as needing
 * confirmation and never answers an approval; "Always" and Confirm are the only ways in; taking a
 * rule out of the file (by hand or Revoke) takes the grant back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VirtualTimeScheduler, filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AgentGrants } from '../../../../../main/daemon/approvals/agent-grants.js';
import { ApprovalService } from '../../../../../main/daemon/approvals/approval-service.js';
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
let grants: AgentGrants;
let approvals: ApprovalService;
const file = () => join(dir.path, 'agentteam.json');

/** Writes agentteam.json as a plain file write (no daemon involved) and waits for the watch to load it. */
async function writeByHand(edit: (text: string) => string, loaded: (allow: readonly string[]) => boolean) {
  const done = firstValueFrom(source.state$.pipe(filter((s) => loaded(s.loaded.config.agents[0]?.allow ?? []))));
  writeFileSync(file(), edit(readFileSync(file(), 'utf8')));
  await done;
}

beforeEach(() => {
  dir = makeTempDir('agentteam-grants-');
  writeFileSync(
    file(),
    JSON.stringify({ agents: [{ id: 'claude', name: 'Claude', runtime: 'claude-code' }] }, null, 2),
  );
  source = ConfigSource.open(dir.path);
  source.watch({ debounceMs: 10 });
  store = Store.open(dir.path);
  grants = new AgentGrants({ table: store.grants, file: source });
  grants.start();
  approvals = new ApprovalService({
    table: store.approvals,
    policyOf: (id) => ({ approvalTimeoutSeconds: 900, allow: grants.rules(id) }),
    persistRule: (id, rule, approvalId) => grants.grant(id, rule, approvalId),
    scheduler: new VirtualTimeScheduler(),
  });
});
afterEach(() => {
  approvals.dispose();
  grants.dispose();
  source.close();
  store.close();
  dir.remove();
});

it('a rule written into agentteam.json by a plain file write is not applied: the request asks, the rule waits for confirmation', async () => {
  await writeByHand(
    (t) => t.replace('"runtime": "claude-code"', '"runtime": "claude-code", "allow": ["Bash(npm test)"]'),
    (allow) => allow.length === 1,
  );
  expect(grants.rules('claude')).toEqual([]);
  expect(grants.unconfirmed('claude')).toEqual(['Bash(npm test)']);
  const asked = approvals.request(origin, ask);
  const pending = approvals.list({ status: 'pending' });
  expect(pending).toHaveLength(1);
  approvals.answer(pending[0]!.id, 'deny');
  await expect(asked).resolves.toMatchObject({ decision: 'deny' });

  // The operator confirms it: from now on it answers, recorded as "always".
  grants.confirm('claude', 'Bash(npm test)');
  expect(grants.rules('claude')).toEqual(['Bash(npm test)']);
  expect(grants.unconfirmed('claude')).toEqual([]);
  await expect(approvals.request(origin, ask)).resolves.toMatchObject({ scope: 'always', status: 'allowed' });
  expect(() => grants.confirm('claude', 'Bash(npm test)')).toThrow(/already has the rule/);
  expect(() => grants.confirm('claude', 'Bash(rm -rf /)')).toThrow(
    expect.objectContaining({
      code: 'unknown_rule',
      message: expect.stringContaining('lists no rule "Bash(rm -rf /)"'),
    }),
  );
});

it('"Always" grants in the store and lists the rule in agentteam.json; deleting it from the file by hand takes it back', async () => {
  const first = approvals.request(origin, ask);
  const id = approvals.list({ status: 'pending' })[0]!.id;
  approvals.answer(id, 'allow', 'always');
  await expect(first).resolves.toMatchObject({ decision: 'allow', scope: 'always' });
  expect(store.grants.ofAgent('claude')).toEqual([
    { agentId: 'claude', rule: 'Bash(npm test)', grantedAt: expect.any(String), approvalId: id },
  ]);
  // Listed for reading, exactly the rule that was shown.
  expect(JSON.parse(readFileSync(file(), 'utf8')).agents[0].allow).toEqual(['Bash(npm test)']);
  expect(grants.unconfirmed('claude')).toEqual([]);
  await expect(approvals.request(origin, ask)).resolves.toMatchObject({ scope: 'always', status: 'allowed' });

  await writeByHand(
    (t) => t.replace(/"allow": \[[^\]]*\]/, '"allow": []'),
    (allow) => allow.length === 0,
  );
  expect(grants.rules('claude')).toEqual([]);
  const again = approvals.request(origin, ask);
  expect(approvals.list({ status: 'pending' })).toHaveLength(1);
  approvals.answer(approvals.list({ status: 'pending' })[0]!.id, 'deny');
  await expect(again).resolves.toMatchObject({ decision: 'deny' });

  // Re-adding it by hand does not bring the grant back: it needs confirmation again.
  await writeByHand(
    (t) => t.replace('"allow": []', '"allow": ["Bash(npm test)"]'),
    (allow) => allow.length === 1,
  );
  expect(grants.rules('claude')).toEqual([]);
  expect(grants.unconfirmed('claude')).toEqual(['Bash(npm test)']);
});

it('revoke takes back a grant or a rule waiting for confirmation (file and store); an unknown rule names the rules there are', async () => {
  const first = approvals.request(origin, ask);
  approvals.answer(approvals.list({ status: 'pending' })[0]!.id, 'allow', 'always');
  await first;
  await writeByHand(
    (t) => t.replace('"allow": [\n        "Bash(npm test)"\n      ]', '"allow": ["Bash(npm test)", "Bash(ls)"]'),
    (allow) => allow.length === 2,
  );
  expect(() => grants.revoke('claude', 'Bash(nope)')).toThrow(
    expect.objectContaining({
      code: 'unknown_rule',
      message: expect.stringContaining('its rules are: "Bash(npm test)", "Bash(ls)"'),
    }),
  );
  grants.revoke('claude', 'Bash(ls)');
  grants.revoke('claude', 'Bash(npm test)');
  expect(grants.rules('claude')).toEqual([]);
  expect(grants.unconfirmed('claude')).toEqual([]);
  expect(JSON.parse(readFileSync(file(), 'utf8')).agents[0].allow).toEqual([]);
});

it('an "always" whose listing cannot be written grants nothing (the file holds an edit that cannot be used)', async () => {
  const first = approvals.request(origin, ask);
  const id = approvals.list({ status: 'pending' })[0]!.id;
  const broken = firstValueFrom(source.state$.pipe(filter((s) => s.error !== null)));
  writeFileSync(file(), '{ "agents": [ oops');
  await broken;
  expect(() => approvals.answer(id, 'allow', 'always')).toThrow(
    /could not be saved \(.*malformed JSON[^]*nothing was changed/,
  );
  expect(store.grants.ofAgent('claude')).toEqual([]);
  approvals.answer(id, 'deny');
  await first;
});

it('issue 30: the rules are read from the table once, and every change made through the grants is seen at once', () => {
  let reads = 0;
  const counted = new AgentGrants({
    table: {
      add: (g) => store.grants.add(g),
      remove: (agentId, rule) => store.grants.remove(agentId, rule),
      ofAgent: (agentId) => {
        reads += 1;
        return store.grants.ofAgent(agentId);
      },
    },
    file: source,
  });
  expect(counted.rules('claude')).toEqual([]);
  expect(counted.rules('claude')).toEqual([]);
  expect(reads).toBe(1);
  expect(counted.grant('claude', 'Bash(npm test)', null)).toBeNull();
  expect(counted.rules('claude')).toEqual(['Bash(npm test)']);
  // What a caller does with the answer does not change the next one.
  counted.rules('claude').push('Bash(rm -rf /)');
  expect(counted.rules('claude')).toEqual(['Bash(npm test)']);
  counted.revoke('claude', 'Bash(npm test)');
  expect(counted.rules('claude')).toEqual([]);
  expect(store.grants.ofAgent('claude')).toEqual([]);
  counted.dispose();
});
