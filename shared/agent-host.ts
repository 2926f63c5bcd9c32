/**
 * issue 43: where an agent runs. `agents[].host` is `"ssh://user@host[:port]"`; absent, the agent
 * runs on this machine. The daemon reaches the host through the system's OpenSSH client with the
 * person's own SSH setup (main/daemon/hosts/), so this only reads the address: a user, a host name
 * or IP literal, and a port. Nothing here may become an ssh option (a leading "-" is refused), and
 * the address carries nothing else (no password, path, query or fragment). Pure.
 */

/** A parsed `ssh://` address. */
export interface SshHost {
  readonly user: string;
  /** A host name, an IPv4 literal, or an IPv6 literal without its brackets. */
  readonly hostname: string;
  /** 22 unless the address names one. */
  readonly port: number;
}

const USER = /^[A-Za-z_][A-Za-z0-9._-]{0,63}$/;
const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

/** The address, or why it is not one (a sentence naming the expected form). */
export function parseSshHost(text: string): { ok: true; host: SshHost } | { ok: false; message: string } {
  const expected = 'expected "ssh://user@host" or "ssh://user@host:port"';
  const m = /^ssh:\/\/([^@/?#]+)@(\[[^\]]*\]|[^:/?#[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (m === null) return { ok: false, message: `"${text}" is not an SSH address: ${expected}` };
  const [, user = '', rawHost = '', port] = m;
  if (!USER.test(user))
    return { ok: false, message: `"${user}" is not a user name (letters, digits, ".", "-", "_"): ${expected}` };
  const bracketed = rawHost.startsWith('[');
  const hostname = bracketed ? rawHost.slice(1, -1) : rawHost;
  if (bracketed ? !IPV6.test(hostname) || !hostname.includes(':') : !HOSTNAME.test(hostname))
    return { ok: false, message: `"${rawHost}" is not a host name or IP address: ${expected}` };
  const n = port === undefined ? 22 : Number(port);
  if (n < 1 || n > 65_535) return { ok: false, message: `port ${port} is outside 1–65535: ${expected}` };
  return { ok: true, host: { user, hostname, port: n } };
}

/** How messages name a host: `user@host` (`:port` when not 22). */
export function sshHostLabel(host: SshHost): string {
  const name = host.hostname.includes(':') ? `[${host.hostname}]` : host.hostname;
  return `${host.user}@${name}${host.port === 22 ? '' : `:${host.port}`}`;
}

/**
 * What a host agent's entry must hold besides a valid address: paths on that host (an absolute
 * `cwd`, or none: the remote user's home). Whether its runtime runs over SSH is the runtime
 * descriptor's to say (issue 39; the daemon checks it, main/daemon/runtime/registry.ts). An
 * isolated agent's worktree is made on that host, of the repository its `cwd` lies in (worktrees/),
 * so it names that `cwd`; `worktreesDir`, when set, is an absolute path there (the config's own rule).
 */
export function hostAgentIssues(agent: {
  readonly host?: string | undefined;
  readonly cwd: string;
  readonly isolation: string;
}): { readonly path: string[]; readonly message: string }[] {
  if (agent.host === undefined) return [];
  const issues: { path: string[]; message: string }[] = [];
  const parsed = parseSshHost(agent.host);
  if (!parsed.ok) issues.push({ path: ['host'], message: parsed.message });
  if (agent.cwd !== '.' && !agent.cwd.startsWith('/'))
    issues.push({
      path: ['cwd'],
      message: `with "host", "cwd" is a path on that host and must be absolute (or left out: the remote user's home)`,
    });
  // issue 43: a worktree is made of the repository `cwd` lies in on that host, so it needs one.
  if (agent.isolation === 'worktree' && agent.cwd === '.')
    issues.push({
      path: ['cwd'],
      message: `with "host" and "isolation": "worktree", "cwd" is the absolute path of a folder of a git repository on that host`,
    });
  return issues;
}
