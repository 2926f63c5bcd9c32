/**
 * The options of one `agentteam` subcommand, parsed the one way the subcommands share: node:util
 * `parseArgs` (strict, no positionals), a parse error as the command's own usage
 * error in one line (exit 2 in cli-main.ts), `--data-dir` never empty and the app's data folder
 * when not given, and the text options that must not be empty.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { defaultDataDir } from './default-data-dir.js';

type UsageErrorClass = new (message: string) => Error;
type Values = Record<string, string | boolean | undefined>;

export interface CommandOptions {
  readonly values: Values;
  /** `--data-dir`, else the default data dir. */
  readonly dataDir: string;
  /** A string option that must not be empty; `required` names what to give (`--agent ID is required`). */
  text(key: string, required: string): string;
  text(key: string): string | undefined;
}

/** Parses `argv` with `options` (plus `--data-dir`); every bad input throws `UsageError`. */
export function commandOptions(
  argv: readonly string[],
  options: ParseArgsOptionsConfig,
  UsageError: UsageErrorClass,
): CommandOptions {
  let values: Values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { 'data-dir': { type: 'string' }, ...options },
      strict: true,
      allowPositionals: false,
    }) as { values: Values });
  } catch (err) {
    throw new UsageError(err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err));
  }
  function text(key: string, required: string): string;
  function text(key: string): string | undefined;
  function text(key: string, required?: string): string | undefined {
    const v = values[key];
    const blank = typeof v !== 'string' || v.trim() === '';
    if (required !== undefined && blank) throw new UsageError(`--${key} ${required} is required`);
    if (v !== undefined && blank) throw new UsageError(`--${key} must not be empty`);
    return v as string | undefined;
  }
  const given = text('data-dir');
  return { values, dataDir: given ?? defaultDataDir(), text };
}
