// issue 40 item 9: `npm start` printed "[DEP0040] DeprecationWarning: The `punycode` module is
// deprecated" at every start. It comes from a bundled dependency (grammy → node-fetch@2 →
// whatwg-url@5 requires Node's own `punycode`), not from our code, and says nothing the operator can
// act on. Exactly that warning is dropped; every other warning (and every error) is printed by
// Node's own handler as before.
export const KNOWN_WARNINGS = new Set(['DEP0040']);

/** Wraps the process's current `warning` listeners (Node's printer) in a filter of the known codes. */
export function quietKnownWarnings(proc = process) {
  const printers = proc.listeners('warning');
  proc.removeAllListeners('warning');
  proc.on('warning', (warning) => {
    if (KNOWN_WARNINGS.has(warning?.code)) return;
    for (const print of printers) print.call(proc, warning);
  });
}
