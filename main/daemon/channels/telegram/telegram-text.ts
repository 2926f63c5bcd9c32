/**
 * Telegram's message text limit (Bot API `sendMessage`: 1–4096 characters, counted by Telegram
 * in UTF-16 code units). A longer reply is split into chunks, each tracked on its own by the
 * delivery tracker (watchdog spec B "Chunked delivery").
 */
export const TELEGRAM_TEXT_LIMIT = 4096;

/**
 * Splits `text` into chunks of at most `limit` UTF-16 code units, never inside a surrogate pair,
 * preferring a line break, then a space, in the second half of each window. Joining the chunks
 * gives back `text` exactly.
 */
export function splitForTelegram(text: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  if (limit < 2) throw new RangeError('limit must be at least 2');
  if (text.length <= limit) return [text];
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = limit;
    const window = rest.slice(0, limit);
    const newline = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    if (newline >= limit / 2) cut = newline + 1;
    else if (space >= limit / 2) cut = space + 1;
    // Never split a surrogate pair (an emoji would turn into two broken characters).
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks;
}
