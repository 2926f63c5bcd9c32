/**
 * The delivery envelope: how one stored message is framed inside a delivery, with its exact
 * target (thread short id kept), message id and TargetSeq (contract §6.1, §8.2).
 *
 * `parseEnvelopes` reads them back, for in-process agents (the demo runtime) and the scripted
 * fake model servers of the tests, which must find the exact target the way a model would.
 * Content is escaped reversibly: every tag of ours inside it — opening or closing, any
 * `<agentteam-…>` (message, ask, team, recovery), in any letter case — gets one extra backslash
 * after its `<`, so an agent's message quoted into another agent's prompt can neither close its
 * envelope nor forge one (`<agentteam-message … from="You">`, `<agentteam-ask>`; issue 41).
 */
import { parseTarget, type TargetKey } from '../../../shared/target.js';
import { attr, checkedId, checkedSeq, checkedTarget } from './prompt-values.js';

export interface EnvelopeFields {
  readonly messageId: string;
  readonly target: TargetKey;
  readonly targetSeq: number;
  readonly authorName: string;
  readonly content: string;
}

/** `<`, any backslashes, an optional `/`, then our tag prefix: one more backslash escapes it. */
const OUR_TAG = /<(\\*)(\/?agentteam-)/gi;
/** The same, escaped (at least one backslash): one fewer unescapes it. */
const OUR_TAG_ESCAPED = /<(\\*)\\(\/?agentteam-)/gi;

/** Content safe inside an envelope: no tag of ours survives as a tag (reversible, see `parseEnvelopes`). */
function escapeEnvelopeContent(content: string): string {
  return content.replace(OUR_TAG, '<$1\\$2');
}

export function renderEnvelope(m: EnvelopeFields): string {
  const head = `<agentteam-message id="${checkedId(m.messageId, 'message id')}" target="${checkedTarget(m.target)}" seq="${checkedSeq(m.targetSeq, 'TargetSeq')}" from="${attr(m.authorName)}">`;
  return `${head}\n${escapeEnvelopeContent(m.content)}\n</agentteam-message>`;
}

const ENVELOPE =
  /<agentteam-message id="([^"]*)" target="([^"]*)" seq="(\d+)" from="([^"]*)">\n([\s\S]*?)\n<\/agentteam-message>/g;

function unattr(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every well-formed envelope in a delivery text, in order; malformed ones are skipped. */
export function parseEnvelopes(text: string): EnvelopeFields[] {
  const out: EnvelopeFields[] = [];
  for (const m of text.matchAll(ENVELOPE)) {
    const [, id, target, seq, from, content] = m;
    const parsed = parseTarget(target ?? '');
    if (!parsed.ok || id === undefined || seq === undefined) continue;
    out.push({
      messageId: id,
      target: parsed.key,
      targetSeq: Number(seq),
      authorName: unattr(from ?? ''),
      content: (content ?? '').replace(OUR_TAG_ESCAPED, '<$1$2'),
    });
  }
  return out;
}
