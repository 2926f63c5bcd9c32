/**
 * Zod issues as one line a person (or a model) can act on: paths and messages, never the
 * values (they may hold message content). One wording for every boundary that parses input:
 * the API gate, the serve bridge's envelope and the MCP tools' arguments. It lives with the
 * contract, not in main/daemon/api/: the MCP tools and serve's bridge parse input too, and neither
 * reaches into the daemon's API room for a wording (STYLE.md habit 16).
 */
import type { z } from 'zod';

/** At most five issues, each `path: message`; `root` names an issue about the whole input. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], root = '(request)'): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : root}: ${issue.message}`)
    .join('; ');
}
