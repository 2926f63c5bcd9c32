/**
 * "Our MCP tools never need approval" (issue 14) holds for their CLI rendering too: a shell
 * command that is exactly `agentteam agent send …` / `agentteam agent react …` (contract §8.2/§11
 * CLI agent-tools) is answered allow without asking the operator. Exactly: the command line is
 * parsed as one simple command in a strict subset of POSIX sh — plain words, '…' and "…" without
 * expansion — and anything that could run something else is refused (then the operator is asked
 * as for any command): `;`, `&`, `|`, newlines, redirections, `$`, backquotes, globs, braces,
 * `~`, `#`, `!`, subshells. So `agentteam agent send …; rm -rf x` still asks.
 */

/**
 * Shells a runtime may wrap a command in (`bash -c '…'`); the script inside is checked the same way.
 * Only `-c`: a login shell (`-lc`, `-l -c`, `--login`) first runs /etc/profile, ~/.bash_profile and
 * ~/.profile, files an agent may have written, so it is not "exactly our command" and asks (issue 41).
 * Codex runs its commands in a non-login shell (codex-config.ts `allow_login_shell = false`).
 */
const WRAPPER_SHELLS = new Set(['sh', 'bash', 'zsh', '/bin/sh', '/bin/bash', '/usr/bin/bash', '/bin/zsh']);
const WRAPPER_FLAGS = new Set(['-c']);

/** Characters that stand for themselves outside quotes (plus any non-ASCII character: letters, emoji). */
const PLAIN = /[A-Za-z0-9_\-.,/:@%+=^]/;
/** After a backslash inside "…", these lose their special meaning; before anything else the backslash stays. */
const DQ_ESCAPABLE = new Set(['\\', '"', '$', '`']);

/**
 * The words of `command` when it is one simple command without any expansion, redirection or
 * chaining; null otherwise. (A strict subset: some harmless lines are refused too — they ask.)
 */
export function simpleCommandWords(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  const chars = [...command];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    if (c === "'") {
      const end = chars.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + chars.slice(i + 1, end).join('');
      i = end;
      continue;
    }
    if (c === '"') {
      let text = '';
      let j = i + 1;
      for (; j < chars.length && chars[j] !== '"'; j++) {
        const d = chars[j] as string;
        if (d === '$' || d === '`') return null;
        if (d === '\\') {
          const next = chars[j + 1];
          if (next === undefined) return null;
          if (next === '\n') {
            j++;
            continue;
          }
          if (DQ_ESCAPABLE.has(next)) {
            text += next;
            j++;
            continue;
          }
        }
        text += d;
      }
      if (j >= chars.length) return null;
      word = (word ?? '') + text;
      i = j;
      continue;
    }
    if (c === '\\') {
      const next = chars[i + 1];
      // A trailing backslash or a line continuation: not one plain line.
      if (next === undefined || next === '\n' || next === '\r') return null;
      word = (word ?? '') + next;
      i++;
      continue;
    }
    if (PLAIN.test(c) || (c.codePointAt(0) ?? 0) > 0x7f) {
      word = (word ?? '') + c;
      continue;
    }
    return null;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Whether `command` is exactly one `agentteam agent send|react …` (possibly inside `bash -c '…'`). */
export function isAgentToolsCommand(command: string): boolean {
  const words = simpleCommandWords(command.trim());
  if (words === null) return false;
  const [first, flag, script, ...more] = words;
  if (first !== undefined && WRAPPER_SHELLS.has(first) && flag !== undefined && WRAPPER_FLAGS.has(flag))
    return script !== undefined && more.length === 0 && isAgentToolsWords(simpleCommandWords(script.trim()));
  return isAgentToolsWords(words);
}

/**
 * The documented options of each agent command (agent-tools-command.ts, AGENT_USAGE): `send
 * --target T --content C [--allow-cross-target]`, `react --message-id M --emoji E`. The fast
 * path takes exactly these (issue 29 "The fast path is exact"): each option at most once as its
 * own `--name` word, the required ones present, every value a plain word that cannot be read as
 * a switch. Anything else — an extra option such as a Chromium launcher switch
 * (`--renderer-cmd-prefix=…`, `--inspect-brk=0`), `--name=value`, `--`, a positional — asks.
 */
const AGENT_OPTIONS = new Map<string, { readonly values: readonly string[]; readonly flags: readonly string[] }>([
  ['send', { values: ['target', 'content'], flags: ['allow-cross-target'] }],
  ['react', { values: ['message-id', 'emoji'], flags: [] }],
]);

/** A leading `-` or one of its look-alikes (U+2010..U+2015, U+2212, U+FE63, U+FF0D): a value that could pass for a switch. */
const DASH_LIKE = /^[-\u2010-\u2015\u2212\uFE63\uFF0D]/u;

function isAgentToolsWords(words: readonly string[] | null): boolean {
  if (words === null) return false;
  const [cmd, group, sub, ...rest] = words;
  const spec = cmd === 'agentteam' && group === 'agent' && sub !== undefined ? AGENT_OPTIONS.get(sub) : undefined;
  if (spec === undefined) return false;
  const seen = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] as string;
    const name = word.startsWith('--') ? word.slice(2) : null;
    if (name === null || seen.has(name)) return false;
    seen.add(name);
    if (spec.flags.includes(name)) continue;
    if (!spec.values.includes(name)) return false;
    const value = rest[++i];
    if (value === undefined || value === '' || DASH_LIKE.test(value)) return false;
  }
  return spec.values.every((name) => seen.has(name));
}
