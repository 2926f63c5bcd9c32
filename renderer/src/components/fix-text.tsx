/**
 * A fix or failure sentence of shared/agent-readiness.ts, whose commands and variables stand in
 * backticks (as `agentteam agents` prints them): shown as code, so a person sees `claude login`
 * as the command to type, not as punctuation. Text only, never markup.
 */
export function FixText({ text }: { text: string }) {
  // Odd pieces of a split on backticks are the quoted ones; an unpaired backtick stays as it is.
  const pieces = text.split('`');
  if (pieces.length % 2 === 0) return <>{text}</>;
  return <>{pieces.map((piece, i) => (i % 2 === 1 ? <code key={i}>{piece}</code> : piece))}</>;
}
