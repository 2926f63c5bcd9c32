/**
 * issue 43: what an `ssh` failure means, read from OpenSSH's own stderr (its exit status is 255
 * for every failure of its own, so the words decide): the host key is unknown (or changed), the
 * authentication failed, or the host did not answer. Each is its own readiness reason with its own
 * fix; a wake it ends fails `host_unreachable` with that sentence as its detail. Pure; table-tested.
 */
import { sshHostLabel, type SshHost } from '../../../shared/agent-host.js';

export const SSH_FAILURES = ['host_key_unknown', 'auth_failed', 'host_unreachable'] as const;
export type SshFailure = (typeof SSH_FAILURES)[number];

/** OpenSSH's status for a failure of its own (the remote command's status otherwise). */
export const SSH_OWN_FAILURE = 255;

export function classifySshFailure(stderr: string): SshFailure {
  if (/host key verification failed|no \S+ host key is known|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(stderr))
    return 'host_key_unknown';
  if (/permission denied \(|too many authentication failures|no supported authentication methods/i.test(stderr))
    return 'auth_failed';
  return 'host_unreachable';
}

/** The sentence a person reads: what failed, and the fix (naming the command to run). */
export function sshFailureSentence(kind: SshFailure, host: SshHost, stderr: string): string {
  const label = sshHostLabel(host);
  const portFlag = host.port === 22 ? '' : ` -p ${host.port}`;
  const said = lastLine(stderr);
  switch (kind) {
    case 'host_key_unknown':
      return `The host key of ${label} is not in your known_hosts (or it changed), so the connection was refused. Check the key, then add it with \`ssh${portFlag} ${host.user}@${host.hostname}\` once in a terminal (or \`ssh-keyscan${portFlag} ${host.hostname} >> ~/.ssh/known_hosts\` after verifying it).`;
    case 'auth_failed':
      return `${label} refused the SSH sign-in (${said || 'authentication failed'}). Make \`ssh${portFlag} ${host.user}@${host.hostname}\` work without a prompt (a key in your ssh-agent or ~/.ssh/config), then Retry.`;
    case 'host_unreachable':
      return `${label} did not answer over SSH${said ? ` (${said})` : ''}. Check that the host is up and \`ssh${portFlag} ${host.user}@${host.hostname}\` connects, then Retry.`;
  }
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return (lines.at(-1) ?? '').slice(0, 200);
}
