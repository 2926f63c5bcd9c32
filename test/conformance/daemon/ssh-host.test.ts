/**
 * issue 43: an agent on another host, reached through OpenSSH — against a real `sshd` on
 * 127.0.0.1 (test/fixtures/sshd.ts) with a second local user as the "remote". The whole daemon
 * (test/fixtures/daemon-harness.ts) runs Claude Code, and an ACP agent (Qwen Code), as that user
 * over `ssh`, with the fake models (test/fixtures/fake-anthropic.ts, fake-openai.ts); the agent reaches the daemon's MCP server through the reverse
 * forward on the remote loopback, with its own bearer token. Checked only through what a person
 * sees (wakes, messages), plus what is left running as the remote user.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema, type AgentConfig } from '../../../shared/config.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { SshHosts } from '../../../main/daemon/hosts/ssh-hosts.js';
import { freePort } from '../../../main/daemon/runtime/free-port.js';
import { probeAgent } from '../../../main/daemon/runtime/readiness.js';
import { DaemonHarness } from '../../fixtures/daemon-harness.js';
import { startBudgetMs } from '../../fixtures/load-budget.js';
import { finalChecksReceived } from '../../fixtures/model-final-checks.js';
import { startSshd, sshdUnavailable, type TestSshd } from '../../fixtures/sshd.js';
import { projectRoot } from '../../../main/daemon/project-root.js';
import { RUNTIME_CASES } from '../runtimes/runtime-cases.js';

const unavailable = sshdUnavailable();
/** The CLI binary the remote user runs (its own copy when it cannot reach this checkout). */
const CLAUDE_BIN = join(projectRoot(), 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
const AFTER_START = Math.max(60_000, startBudgetMs('claude-code'));
/** issue 43 "Done when": the contract cases — reply through the tool, final-check then reply, no reply, provider error, a slow turn with beacons. */
const CASES = RUNTIME_CASES.filter((c) =>
  ['#conf-tool', '#conf-local', '#conf-silent', '#conf-error', '#conf-slow'].includes(c.target),
);
/** Small, so the slow case's quiet seconds show beacons (watchdog spec A). */
const WATCHDOG_SECONDS = 1;

/**
 * The contract cases against one harness daemon whose agent runs on the test sshd's host, checked
 * through what a person sees (the wake, its record, the messages), what reached the model, and
 * that the CLI ran as the remote user.
 */
function contractCases(
  fixture: () => { h: DaemonHarness; sshd: TestSshd; remoteCli: string },
  which: 'ending well' | 'failing',
): void {
  for (const c of CASES.filter((k) => (k.status === 'failed') === (which === 'failing')))
    it.sequential(
      c.name,
      async () => {
        const { h, sshd, remoteCli } = fixture();
        await h.idle(20_000);
        const requestsBefore = h.model.requests.length;
        const { wakeToken } = await h.send(c.target, c.text);
        const wake = await h.terminal(wakeToken, 50_000);
        expect({ status: wake.status, reason: wake.reason }).toEqual({ status: c.status, reason: c.reason });
        const inspected = await h.api['wakes.inspect']({ wakeToken });
        expect(
          inspected.events.filter((e) => e.kind === 'status' && e.status !== null && isTerminal(e.status)),
        ).toHaveLength(1);
        expect(inspected.promptInputs.filter((p) => p.kind === 'final_check')).toHaveLength(c.finalChecks);
        // What really reached the model from the remote CLI: the one final-check where expected.
        expect(finalChecksReceived(h.model.requests.slice(requestsBefore), c.target)).toBe(c.finalChecks);
        const { messages } = await h.api['messages.list']({ target: c.target });
        expect(messages.filter((m) => m.authorKind === 'agent')).toHaveLength(c.sends);
        if (c.beacons === true) {
          expect(wake.beacons).toBeGreaterThanOrEqual(1);
          expect(inspected.events.filter((e) => e.kind === 'beacon').length).toBe(wake.beacons);
        }
        // It ran as the remote user: the CLI process is that user's.
        expect(sshd.remoteProcesses(remoteCli).length).toBeGreaterThan(0);
      },
      60_000,
    );
}

/**
 * Stop over SSH ends the running turn (the CLI's own interrupt, or its process group on the host):
 * the wake fails `stopped_by_operator`, and the agent takes the next message (`nextMs`: within a
 * restart of its CLI for a runtime whose Stop replaces the process).
 */
function stopCase(harness: () => DaemonHarness, nextMs: number): void {
  it.sequential(
    'Stop over SSH ends the turn: failed / stopped_by_operator, and the agent takes the next message',
    async () => {
      const h = harness();
      await h.idle(20_000);
      const { wakeToken } = await h.send('#ssh-stop', '[[slow:30:1000]] [[tool]] A long task.');
      await h.busy(20_000);
      const stopped = await h.api['agents.stop']({ agentId: h.agentId });
      expect(stopped.id).toBe(h.agentId);
      const wake = await h.terminal(wakeToken, 30_000);
      expect({ status: wake.status, reason: wake.reason }).toEqual({
        status: 'failed',
        reason: 'stopped_by_operator',
      });
      const next = await h.send('#ssh-after-stop', '[[tool]] Still there?');
      expect((await h.terminal(next.wakeToken, nextMs)).status).toBe('reply_sent');
    },
    50_000 + nextMs,
  );
}

describe.skipIf(unavailable !== null)(
  `Claude Code over SSH (issue 43)${unavailable === null ? '' : ` — ${unavailable}`}`,
  () => {
    let sshd: TestSshd;
    let h: DaemonHarness;
    let remoteCli: string;

    beforeAll(async () => {
      sshd = await startSshd();
      remoteCli = sshd.reachable(CLAUDE_BIN);
      h = await DaemonHarness.start('claude-code', {
        ssh: { configFile: sshd.configFile },
        watchdogThresholdSeconds: WATCHDOG_SECONDS,
        agentConfig: { host: sshd.address, cwd: '.', command: remoteCli },
      });
      await h.ready(AFTER_START);
    }, AFTER_START + 30_000);

    afterAll(async () => {
      await h?.dispose();
      await sshd?.close();
    }, 60_000);

    contractCases(() => ({ h, sshd, remoteCli }), 'ending well');
    contractCases(() => ({ h, sshd, remoteCli }), 'failing');

    stopCase(() => h, 40_000);

    it.sequential(
      'a dropped connection mid-turn fails the wake host_unreachable and leaves no agent process on the host',
      async () => {
        await h.idle(20_000);
        const { wakeToken } = await h.send('#ssh-drop', '[[slow:30:1000]] [[tool]] A long task.');
        await h.busy(20_000);
        // The agent's processes on the host now: its wrapper and the CLI (the CLI's own children too).
        const dropped = sshd.remoteProcesses(remoteCli);
        expect(dropped.length).toBeGreaterThan(0);
        // The connection drops: the master connection every session of this host rides on dies.
        const masters = sshd.masterPids();
        expect(masters).toHaveLength(1);
        process.kill(masters[0] as number, 'SIGKILL');
        const wake = await h.terminal(wakeToken, 30_000);
        expect({ status: wake.status, reason: wake.reason }).toEqual({ status: 'failed', reason: 'host_unreachable' });
        // The wrapper on the host ended the CLI's whole process group when the channel's stdin ended
        // (the restarted runtime's new processes are not the dropped ones).
        await expect
          .poll(() => sshd.remoteProcesses(remoteCli).filter((pid) => dropped.includes(pid)), {
            timeout: 15_000,
            interval: 100,
          })
          .toEqual([]);
        // Recovery continues once the host answers: the agent restarts over a new connection and takes work.
        await h.ready(AFTER_START);
        const next = await h.send('#ssh-after-drop', '[[tool]] Back?');
        expect((await h.terminal(next.wakeToken, 40_000)).status).toBe('reply_sent');
      },
      90_000 + AFTER_START,
    );

    it.sequential(
      'the host down after a drop: the agent reads not ready (host_unreachable) until the host answers again, then the waiting message is answered',
      async () => {
        await h.idle(20_000);
        const readiness = async () =>
          (await h.api['agents.list']({})).find((a) => a.id === h.agentId)?.readiness ?? null;
        expect(await readiness()).toMatchObject({ state: 'ready', ready: true });
        // The host stops answering, and the connection drops.
        await sshd.down();
        const masters = sshd.masterPids();
        expect(masters).toHaveLength(1);
        process.kill(masters[0] as number, 'SIGKILL');
        // The runtime's exit is the connection's: the agent is probed again and reads its host's state.
        await expect
          .poll(readiness, { timeout: 30_000, interval: 100 })
          .toMatchObject({ state: 'host_unreachable', ready: false, reason: 'host_unreachable' });
        // A message meanwhile waits for the agent's replacement (nothing is lost while the host is away).
        const waiting = await h.send('#ssh-outage', '[[tool]] Are you there?');
        await sshd.up();
        // Recovery continues once the host answers: the agent starts over a new connection and reads ready.
        await expect.poll(readiness, { timeout: AFTER_START, interval: 200 }).toMatchObject({ state: 'ready' });
        expect((await h.terminal(waiting.wakeToken, 60_000)).status).toBe('reply_sent');
      },
      120_000 + AFTER_START,
    );

    it.sequential(
      'the daemon stopping leaves no process of the agent on the host',
      async () => {
        expect(sshd.remoteProcesses(remoteCli).length).toBeGreaterThan(0);
        await h.stop();
        await expect.poll(() => sshd.remoteProcesses(remoteCli), { timeout: 15_000, interval: 100 }).toEqual([]);
        expect(sshd.masterPids()).toEqual([]);
      },
      30_000,
    );
  },
);

/**
 * Codex's native binary's folder (the npm package's `codex.js` only finds and runs it): the binary
 * needs its bundled `codex-resources/bwrap` beside it, so the remote user reaches the whole folder.
 */
const CODEX_VENDOR = join(
  projectRoot(),
  'node_modules',
  '@openai',
  'codex-linux-x64',
  'vendor',
  'x86_64-unknown-linux-musl',
);

describe.skipIf(unavailable !== null)(
  `Codex (app-server) over SSH (issue 43)${unavailable === null ? '' : ` — ${unavailable}`}`,
  () => {
    let sshd: TestSshd;
    let h: DaemonHarness;
    let remoteCli: string;
    const afterStart = Math.max(60_000, startBudgetMs('codex'));

    beforeAll(async () => {
      sshd = await startSshd();
      remoteCli = join(sshd.reachableDir(CODEX_VENDOR), 'bin', 'codex');
      h = await DaemonHarness.start('codex', {
        ssh: { configFile: sshd.configFile },
        watchdogThresholdSeconds: WATCHDOG_SECONDS,
        // No `cwd`: its own workspace on the host, which `thread/start` names by its absolute path there
        // (the host's home, learnt by the probe) — a path on this machine would not exist there.
        agentConfig: { host: sshd.address, cwd: '.', command: remoteCli },
      });
      await h.ready(afterStart);
    }, afterStart + 30_000);

    afterAll(async () => {
      await h?.dispose();
      await sshd?.close();
    }, 60_000);

    contractCases(() => ({ h, sshd, remoteCli }), 'ending well');
    stopCase(() => h, 40_000);
    contractCases(() => ({ h, sshd, remoteCli }), 'failing');
  },
);

/** Qwen Code (research/acp.md §3): the ACP preset that runs offline here on Chat Completions, with load and resume. */
const QWEN_PACKAGE = join(projectRoot(), 'node_modules', '@qwen-code', 'qwen-code');
const QWEN_AFTER_START = Math.max(60_000, startBudgetMs('qwen'));

describe.skipIf(unavailable !== null)(
  `an ACP agent (Qwen Code) over SSH (issue 43)${unavailable === null ? '' : ` — ${unavailable}`}`,
  () => {
    let sshd: TestSshd;
    let h: DaemonHarness;
    let remoteCli: string;

    beforeAll(async () => {
      sshd = await startSshd();
      // What a person puts on the host: `qwen` on its PATH, here a program running its package with Node.
      remoteCli = join(sshd.reachableDir(QWEN_PACKAGE), 'cli.js');
      const qwen = sshd.remoteProgram('qwen', [sshd.reachable(process.execPath), '--expose-gc', remoteCli]);
      h = await DaemonHarness.start('acp', {
        ssh: { configFile: sshd.configFile },
        watchdogThresholdSeconds: WATCHDOG_SECONDS,
        // An ACP session names its folder on the host (`session/new` cwd): an absolute one there.
        agentConfig: { preset: 'qwen', host: sshd.address, cwd: sshd.remoteDir('qwen-work'), command: qwen },
      });
      await h.ready(QWEN_AFTER_START);
    }, QWEN_AFTER_START + 30_000);

    afterAll(async () => {
      await h?.dispose();
      await sshd?.close();
    }, 60_000);

    contractCases(() => ({ h, sshd, remoteCli }), 'ending well');

    stopCase(() => h, 60_000);

    // Qwen keeps a failed prompt in its history (the fake model then sees its marker again, as in
    // acp-conformance.test.ts): the failing case runs last.
    contractCases(() => ({ h, sshd, remoteCli }), 'failing');
  },
);

describe.skipIf(unavailable !== null)(
  `readiness of an agent on another host (issue 43)${unavailable === null ? '' : ` — ${unavailable}`}`,
  () => {
    let sshd: TestSshd;
    let dir: string;
    const hostsOpen: SshHosts[] = [];
    const agent = (extra: Record<string, unknown>) =>
      ConfigSchema.parse({ agents: [{ id: 'far', name: 'Far', runtime: 'claude-code', ...extra }] })
        .agents[0] as AgentConfig;
    const probe = (configFile: string, extra: Record<string, unknown>) => {
      const hosts = new SshHosts(dir, { configFile });
      hostsOpen.push(hosts);
      return probeAgent(agent(extra), { dataDir: dir, projectRoot: projectRoot(), hosts });
    };

    beforeAll(async () => {
      sshd = await startSshd();
      dir = await mkdtemp(join(tmpdir(), 'agentteam-ssh-ready-'));
    }, 30_000);

    afterAll(async () => {
      for (const h of hostsOpen) h.close();
      await sshd?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('ready: the CLI answers on the host (its version), over the host’s master connection', async () => {
      const res = await probe(sshd.configFile, { host: sshd.address, command: sshd.reachable(CLAUDE_BIN) });
      expect(res.outcome).toBe('ready');
      expect(res.cliVersion).toMatch(/\d+\.\d+/);
      expect(res.detail).toContain(`on agentteam-remote@127.0.0.1:${sshd.port}`);
    }, 30_000);

    it('CLI missing on the host: its own reason, naming the command and the host', async () => {
      const res = await probe(sshd.configFile, { host: sshd.address, command: '/nonexistent/claude' });
      expect(res).toMatchObject({
        outcome: 'cli_missing',
        detail: expect.stringContaining('"/nonexistent/claude" was not found on'),
      });
    }, 30_000);

    it('host key unknown: refused with a fix naming ssh-keyscan and ssh, and the key is never added', async () => {
      const config = sshd.variantConfig('unknown-host-key');
      const res = await probe(config, { host: sshd.address });
      expect(res.outcome).toBe('host_key_unknown');
      expect(res.detail).toContain(`ssh-keyscan -p ${sshd.port} 127.0.0.1`);
      expect(res.detail).toContain(`ssh -p ${sshd.port} agentteam-remote@127.0.0.1`);
      expect(readFileSync(join(dirname(config), 'known_hosts_empty'), 'utf8')).toBe('');
    }, 30_000);

    it('authentication failed: a key the host does not know', async () => {
      const res = await probe(sshd.variantConfig('unauthorized-key'), { host: sshd.address });
      expect(res.outcome).toBe('host_auth_failed');
      expect(res.detail).toMatch(/refused the SSH sign-in/);
    }, 30_000);

    it('host unreachable: nothing listens on its port', async () => {
      const port = await freePort();
      const res = await probe(sshd.configFile, { host: `ssh://agentteam-remote@127.0.0.1:${port}` });
      expect(res.outcome).toBe('host_unreachable');
      expect(res.detail).toMatch(/did not answer over SSH/);
    }, 30_000);
  },
);
