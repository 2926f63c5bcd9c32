/**
 * Loads `<data-dir>/agentteam.json` (DESIGN.md "Config") and validates it with `ConfigSchema`.
 *
 * - A missing file is not an error: the defaults apply (the serve layer seeds first-run content).
 * - JSON with comments and trailing commas is accepted (issue 39: the file is the person's, and
 *   comments survive the UI's edits: json-edit.ts).
 * - Malformed JSON names the file, line and column; an invalid config names the file, the JSON
 *   path and the expectation, one line per problem, e.g.
 *   `…/agentteam.json: agents[0].runtime: expected one of claude-code|codex|opencode|demo, got "gpt"`.
 *   The daemon refuses to start on either (the caller throws the returned `ConfigError`).
 * - This module only reads. The one writer is `config-source.ts` (a minimal rewrite of the keys a
 *   person changed in the UI, said in the UI); a file that does not validate is never rewritten.
 * - Legacy visible-reply toggles are accepted, ignored and logged once (contract §7).
 * - Bytes that are not UTF-8 are refused (issue 41), naming the byte offset: decoded leniently they
 *   would become U+FFFD, and the next save from the UI would write that over the person's bytes.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { ConfigSchema, legacyToggles, type AgentConfig, type Config } from '../../../shared/config.js';
import type { DaemonLog } from '../daemon-log.js';
import { JsonSyntaxError, parseJsonc } from './json-edit.js';

export const CONFIG_FILE = 'agentteam.json';

export type ConfigErrorCode = 'config_unreadable' | 'config_malformed_json' | 'config_invalid';

export interface ConfigProblem {
  /** JSON path like `agents[0].runtime`, or `(top level)`. */
  readonly path: string;
  /** What was expected and what was found. */
  readonly expectation: string;
}

/** Why a config cannot be used. A value at the boundary; the composition root throws it to refuse to start. */
export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    readonly file: string,
    message: string,
    readonly problems: readonly ConfigProblem[] = [],
    /** 1-based position of malformed JSON. */
    readonly position: { readonly line: number; readonly column: number } | null = null,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type ConfigLoad =
  | {
      readonly ok: true;
      readonly config: Config;
      readonly file: string;
      readonly exists: boolean;
      readonly legacyToggles: readonly string[];
      /** The file's text as read ('' when it does not exist): the base of a minimal rewrite (json-edit.ts). */
      readonly text: string;
      /** The parsed JSON before defaults: which keys the person wrote (a value's origin in the UI). */
      readonly raw: unknown;
    }
  | { readonly ok: false; readonly error: ConfigError };

/**
 * Rules on one agent's entry that the daemon's rooms above this one decide (issue 39 "Plug-ins":
 * whether its runtime runs over SSH is its descriptor's, runtime/registry.ts `agentConfigIssues`).
 * Each issue names its path inside the agent's entry and what to do, like the schema's own.
 */
export type AgentConfigIssues = (
  agent: AgentConfig,
) => readonly { readonly path: readonly string[]; readonly message: string }[];

/** The config schema, with `agentIssues` checked on every agent as `agents[i].<path>` (the schema's own way). */
export function configSchemaWith(agentIssues: AgentConfigIssues | undefined) {
  if (agentIssues === undefined) return ConfigSchema;
  return ConfigSchema.superRefine((config, ctx) =>
    config.agents.forEach((agent, i) => {
      for (const issue of agentIssues(agent))
        ctx.addIssue({ code: 'custom', path: ['agents', i, ...issue.path], message: issue.message });
    }),
  );
}

export function loadConfig(
  dataDir: string,
  options: { log?: DaemonLog; agentIssues?: AgentConfigIssues } = {},
): ConfigLoad {
  const file = join(dataDir, CONFIG_FILE);
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (!isUtf8(bytes)) {
      const offset = firstInvalidUtf8(bytes);
      return fail(
        new ConfigError(
          'config_unreadable',
          file,
          `${file}: not valid UTF-8 at byte ${offset} (0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')}); AgentTeam reads and saves agentteam.json as UTF-8 and does not rewrite bytes it cannot read back. Save the file as UTF-8.`,
        ),
      );
    }
    text = bytes.toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return { ok: true, config: ConfigSchema.parse({}), file, exists: false, legacyToggles: [], text: '', raw: {} };
    return fail(
      new ConfigError(
        'config_unreadable',
        file,
        `${file}: cannot read the config file (${code ?? (err as Error).message}); check that it is a readable file.`,
      ),
    );
  }
  // Editors on Windows may save a UTF-8 byte order mark; it is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  let data: unknown;
  try {
    // issue 39: the person's file may hold comments and trailing commas (JSON with comments).
    data = parseJsonc(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const { line, column, reason } = err;
    return fail(
      new ConfigError(
        'config_malformed_json',
        file,
        `${file}:${line}:${column}: malformed JSON: ${reason}. Fix the file (AgentTeam never rewrites it) or move it aside to start with the defaults.`,
        [],
        { line, column },
      ),
    );
  }

  const parsed = configSchemaWith(options.agentIssues).safeParse(data, { reportInput: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap(describeIssue);
    return fail(
      new ConfigError(
        'config_invalid',
        file,
        problems.map((p) => `${file}: ${p.path}: ${p.expectation}`).join('\n'),
        problems,
      ),
    );
  }
  const toggles = legacyToggles(parsed.data);
  if (toggles.length > 0) {
    options.log?.warn(
      'config: legacy visible-reply toggles are ignored; the visible-reply contract is always on (contract §7)',
      { file, paths: toggles },
    );
  }
  return { ok: true, config: parsed.data, file, exists: true, legacyToggles: toggles, text, raw: data };
}

function fail(error: ConfigError): ConfigLoad {
  return { ok: false, error };
}

/** `agents[0].runtime`, `channels["my channel"]`, `(top level)`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue): ConfigProblem[] {
  const path = formatJsonPath(issue.path);
  const got = 'input' in issue ? `, got ${describeValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_value':
      return [
        {
          path,
          expectation: `expected ${issue.values.length === 1 ? describeValue(issue.values[0]) : `one of ${issue.values.map(String).join('|')}`}${got}`,
        },
      ];
    case 'invalid_type':
      return [
        {
          path,
          expectation:
            issue.input === undefined
              ? `is required (${article(issue.expected)})`
              : `expected ${article(issue.expected)}${got}`,
        },
      ];
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const least = issue.code === 'too_small' ? 'at least' : 'at most';
      const plural = (unit: string) => `${String(bound)} ${unit}${Number(bound) === 1 ? '' : 's'}`;
      if (issue.origin === 'string') return [{ path, expectation: `expected ${least} ${plural('character')}${got}` }];
      if (issue.origin === 'array') return [{ path, expectation: `expected ${least} ${plural('item')}` }];
      return [{ path, expectation: `expected a number ${op} ${String(bound)}${got}` }];
    }
    case 'invalid_format':
      // A custom message (the schema's own wording) says more than zod's generic one.
      return [
        {
          path,
          expectation: `expected ${/^Invalid/.test(issue.message) ? `a string matching ${issue.pattern ?? issue.format}` : issue.message}${got}`,
        },
      ];
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: formatJsonPath([...issue.path, key]),
        expectation: 'unknown key; remove it or check its spelling',
      }));
    default:
      return [{ path, expectation: issue.message }];
  }
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  if (type === 'array' || type === 'object') return `an ${type}`;
  return `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629 §4); -1 if none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    // Lead byte → sequence length and the allowed range of the second byte (no overlongs, no surrogates, ≤ U+10FFFF).
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : (b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef
            ? [3, 0x80, 0xbf]
            : b === 0xed
              ? [3, 0x80, 0x9f]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b >= 0xf1 && b <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : b === 0xf4
                    ? [4, 0x80, 0x8f]
                    : [0, 0, 0];
    if (length === 0) return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k += 1) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}
