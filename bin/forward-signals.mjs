// Runs a child command in the place of this process (the `agentteam` bin's re-run on Node 24):
// SIGINT/SIGTERM/SIGHUP sent to this process reach the child, and this process ends as the
// child ended (its exit code, or the same signal), so stopping the bin never orphans the real
// daemon still holding its port and writer lock (issue 16 "No orphans").
//
// On POSIX the child gets its own process group: a Ctrl-C in a terminal then reaches only this
// process, which forwards it once (in a shared group the child would see it twice, and
// `agentteam serve` takes a second SIGINT as "exit now" instead of a graceful stop).
import { spawn } from 'node:child_process';

export const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Spawns `command args` with inherited stdio and never returns: the process exits with the
 * child's code, or re-raises the signal that ended the child.
 */
export function runForwardingSignals(command, args, platform = process.platform) {
  const child = spawn(command, args, { stdio: 'inherit', detached: platform !== 'win32' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.once('error', (err) => {
    process.stderr.write(`agentteam: could not start ${command}: ${err.message}\n`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const s of FORWARDED_SIGNALS) process.off(s, forward);
    if (signal === null) process.exit(code ?? 1);
    // Die of the same signal, so a caller sees what the child saw (default action, no handler now).
    process.kill(process.pid, signal);
    // A signal whose default action does not end a process: exit as a shell reports it.
    setTimeout(() => process.exit(128 + 1), 100).unref();
  });
}
