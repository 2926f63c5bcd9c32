/**
 * issue 15: the person's existing Claude Code sign-in, credential material only, against the
 * real `claude` CLI and the fake Anthropic API. The person's home is a temp dir holding an
 * OAuth credential file plus things that must stay out: a hook, an MCP server and
 * instructions. The fake accepts only the person's current access token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PersonProfile } from '../../../main/daemon/runtime/auth/person-profile.js';
import { requestCredential, type FakeAnthropic, type RecordedModelRequest } from '../../fixtures/fake-anthropic.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';
import { makeTempDir, type TempDir } from '../../fixtures/temp-dir.js';

const INSTRUCTIONS_MARKER = 'PERSON-INSTRUCTIONS-7f3a';

/** The model requests (not side requests) the harness's fake Anthropic answered. */
const modelRequestsOf = (h: RuntimeHarness): RecordedModelRequest[] =>
  (h.fake as unknown as FakeAnthropic).requests.filter((r) => r.path.endsWith('/v1/messages'));

let temps: TempDir[] = [];
let harnesses: RuntimeHarness[] = [];
afterEach(async () => {
  await Promise.allSettled(harnesses.map((h) => h.stop()));
  for (const t of temps) t.remove();
  temps = [];
  harnesses = [];
});

function credentialFile(accessToken: string): string {
  return JSON.stringify({
    claudeAiOauth: {
      accessToken,
      refreshToken: 'sk-ant-ort01-person-refresh',
      expiresAt: Date.now() + 3_600_000,
      scopes: ['user:inference', 'user:profile'],
      subscriptionType: 'max',
    },
  });
}

/** A person's home with a Claude login and config that must not reach the agent. */
function personHome(accessToken: string | null): { person: PersonProfile; home: string; hookMarker: string } {
  const t = makeTempDir('agentteam-person-');
  temps.push(t);
  const home = t.path;
  const claudeDir = join(home, '.claude');
  mkdirSync(claudeDir, { recursive: true });
  if (accessToken !== null)
    writeFileSync(join(claudeDir, '.credentials.json'), credentialFile(accessToken), { mode: 0o600 });
  const hookMarker = join(home, 'hook-ran');
  writeFileSync(
    join(claudeDir, 'settings.json'),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${hookMarker}` }] }],
        Stop: [{ hooks: [{ type: 'command', command: `touch ${hookMarker}` }] }],
      },
    }),
  );
  writeFileSync(join(claudeDir, 'CLAUDE.md'), `Always mention ${INSTRUCTIONS_MARKER}.\n`);
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { personal: { type: 'stdio', command: 'node', args: ['-e', ''] } } }),
  );
  return { person: { home, env: {}, platform: 'linux' }, home, hookMarker };
}

describe('Claude Code with the person’s CLI login (auth: cli-login)', () => {
  it('sends the person’s credential, and none of their hooks, MCP servers or instructions reach the runtime', async () => {
    const { person, home, hookMarker } = personHome('sk-ant-oat01-person-A');
    let accepted = 'sk-ant-oat01-person-A';
    const h = await RuntimeHarness.start('claude-code', {
      auth: 'cli-login',
      person,
      apiKey: null,
      anthropic: { acceptCredential: (c) => c === accepted },
    });
    harnesses.push(h);
    const wake = h.post('@agent1 [[tool]] hello');
    expect((await h.terminal(wake)).status).toBe('reply_sent');
    const modelRequests = modelRequestsOf(h);
    expect(modelRequests.length).toBeGreaterThan(0);
    for (const r of modelRequests) expect(requestCredential(r.headers)).toBe('sk-ant-oat01-person-A');
    // Nothing of the person's config: no hook ran, no personal MCP tool, no instructions.
    expect(existsSync(hookMarker)).toBe(false);
    for (const r of modelRequests) {
      expect(r.tools.some((t) => t.includes('personal'))).toBe(false);
      expect(JSON.stringify(r.body)).not.toContain(INSTRUCTIONS_MARKER);
    }
    // One credential store: nothing copied into the agent's runtime dir, the person's file untouched.
    const copied = readdirSync(h.dir, { recursive: true }).filter((f) => String(f).endsWith('.credentials.json'));
    expect(copied).toEqual([]);
    expect(lstatSync(join(home, '.claude', '.credentials.json')).mode & 0o777).toBe(0o600);

    // The person's CLI refreshes (rotates) the login: the running agent follows the one store.
    accepted = 'sk-ant-oat01-person-B';
    writeFileSync(join(home, '.claude', '.credentials.json'), credentialFile(accepted), { mode: 0o600 });
    const second = h.post('@agent1 [[tool]] again');
    expect((await h.terminal(second)).status).toBe('reply_sent');
    const last = modelRequestsOf(h).at(-1);
    expect(last && requestCredential(last.headers)).toBe('sk-ant-oat01-person-B');
  });

  it('two agents share the one login: a rotation by the person reaches both, neither keeps a stale copy', async () => {
    const { person, home } = personHome('sk-ant-oat01-two-A');
    let accepted = 'sk-ant-oat01-two-A';
    const opts = {
      auth: 'cli-login' as const,
      person,
      apiKey: null,
      anthropic: { acceptCredential: (c: string | null) => c === accepted },
    };
    const [a, b] = await Promise.all([
      RuntimeHarness.start('claude-code', opts),
      RuntimeHarness.start('claude-code', opts),
    ]);
    harnesses.push(a, b);
    expect((await a.terminal(a.post('@agent1 [[tool]] one'))).status).toBe('reply_sent');
    expect((await b.terminal(b.post('@agent1 [[tool]] one'))).status).toBe('reply_sent');
    accepted = 'sk-ant-oat01-two-B';
    writeFileSync(join(home, '.claude', '.credentials.json'), credentialFile(accepted), { mode: 0o600 });
    const [ra, rb] = await Promise.all([
      a.terminal(a.post('@agent1 [[tool]] two')),
      b.terminal(b.post('@agent1 [[tool]] two')),
    ]);
    expect([ra.status, rb.status]).toEqual(['reply_sent', 'reply_sent']);
    // The person's file is still the one store, with the rotated token.
    expect(readFileSync(join(home, '.claude', '.credentials.json'), 'utf8')).toContain('sk-ant-oat01-two-B');
  });

  it('with no login and no key, a mention ends failed with auth_required', async () => {
    const { person } = personHome(null);
    const h = await RuntimeHarness.start('claude-code', { auth: 'cli-login', person, apiKey: null });
    harnesses.push(h);
    const end = await h.terminal(h.post('@agent1 [[tool]] hello'));
    expect(end.status).toBe('failed');
    expect(end.reason).toBe('auth_required');
    expect(end.detail).toContain('Not logged in');
  });

  it('auth: env ignores the person’s login (the agent’s env key only)', async () => {
    const { person } = personHome('sk-ant-oat01-person-env');
    const h = await RuntimeHarness.start('claude-code', {
      auth: 'env',
      person,
      apiKey: 'agent-own-key',
      anthropic: { acceptCredential: (c) => c === 'agent-own-key' },
    });
    harnesses.push(h);
    expect((await h.terminal(h.post('@agent1 [[tool]] hello'))).status).toBe('reply_sent');
  });
});
