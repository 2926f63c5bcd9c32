/** The `agentteam` command line: parses argv and dispatches to a subcommand. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`agentteam: unknown command "${command}"; run "agentteam --help".\n`);
  return 2;
}

const USAGE = `Usage:
  agentteam serve --data-dir DIR [--port N]
  agentteam send --data-dir DIR --target '#general' --text '@claude hi'
  agentteam wakes --data-dir DIR --json
  agentteam messages --data-dir DIR --target '#general' --json
`;
