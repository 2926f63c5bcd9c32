/**
 * issue 29 with the real OpenCode (fake model): a command its `bash` tool runs does not see the
 * daemon's server password (OPENCODE_SERVER_PASSWORD), which would let it answer its own
 * permission requests on the OpenCode server; the command itself runs as the operator allowed it.
 */
import { filter, firstValueFrom, timeout } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/contract.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';

let h: DaemonHarness;
beforeAll(async () => {
  h = await DaemonHarness.start('opencode');
  await h.ready(60_000);
}, 120_000);
afterAll(async () => {
  await h?.dispose();
});

it('the allowed command runs without the server password in its environment', { timeout: 200_000 }, async () => {
  const command = 'echo ran-$(printenv OPENCODE_SERVER_PASSWORD | wc -c)-$(printenv XDG_CONFIG_HOME | wc -c)';
  const asked = firstValueFrom(
    h.daemon.events$.pipe(
      filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
      filter((e) => e.payload.status === 'pending'),
      timeout(90_000),
    ),
  );
  const { wakeToken } = await h.send('#general', `[[shell:${command}]] run this`);
  const { payload: approval } = await asked;
  expect(approval).toMatchObject({ tool: 'Bash', summary: command });
  await h.api['approvals.answer']({ id: approval.id, decision: 'allow' });
  expect((await h.terminal(wakeToken, 120_000)).status).toBe('reply_sent');
  const { messages } = await h.api['messages.list']({ target: '#general', limit: 50 });
  const reported = messages.filter((m) => m.authorKind === 'agent').at(-1)?.content ?? '';
  // The password is gone (0 bytes); the rest of OpenCode's environment is still there.
  expect(reported).toMatch(/ran-0-[1-9]\d*/);
});
