/**
 * Minimal, format-preserving edits of a JSON text (issue 17: the UI writes the keys a person
 * changed into agentteam.json, and nothing else). Each edit replaces one value's text, or inserts
 * one missing member into the innermost object that exists — indentation, key order, line endings
 * and every other byte of the file stay as the person left them.
 *
 * The text must already be valid JSON (the caller parsed it); a BOM is kept.
 */

/**
 * One value to set at a path of object keys, e.g. `['channels', 'local', 'silenceWatchdog', 'thresholdSeconds']`;
 * a number steps into an existing array element (issue 14: `['agents', 0, 'allow']`).
 */
export interface JsonEdit {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

interface Span {
  readonly start: number;
  readonly end: number;
}
interface Member {
  readonly key: string;
  readonly keySpan: Span;
  readonly value: Node;
}
type Node =
  | (Span & { readonly kind: 'object'; readonly members: readonly Member[] })
  | (Span & { readonly kind: 'array'; readonly items: readonly Node[] })
  | (Span & { readonly kind: 'scalar' });

/** Applies the edits in order; each one re-reads the text the previous one produced. */
export function applyJsonEdits(text: string, edits: readonly JsonEdit[]): string {
  let out = text;
  for (const edit of edits) out = applyOne(out, edit);
  return out;
}

function applyOne(text: string, edit: JsonEdit): string {
  if (edit.path.length === 0) throw new Error('json-edit: an edit needs a path');
  const root = parseSpans(text);
  if (root.kind !== 'object') throw new Error('json-edit: the top level is not an object');
  const style = detectStyle(text);
  let node: Node = root;
  for (let i = 0; i < edit.path.length; i++) {
    const key = edit.path[i] as string | number;
    if (typeof key === 'number') {
      // Array elements are only stepped into (never inserted): the path names one that exists.
      const item: Node | undefined = node.kind === 'array' ? node.items[key] : undefined;
      if (item === undefined) throw new Error(`json-edit: ${edit.path.slice(0, i + 1).join('.')} does not exist`);
      if (i === edit.path.length - 1) {
        return replaceValue(text, item, render(edit.value, lineIndent(text, item.start), style));
      }
      node = item;
      continue;
    }
    if (node.kind !== 'object') throw new Error(`json-edit: ${edit.path.slice(0, i).join('.')} is not an object`);
    const member: Member | undefined = node.members.findLast((m) => m.key === key);
    if (member === undefined) {
      const rest = edit.path.slice(i + 1);
      if (rest.some((k) => typeof k === 'number'))
        throw new Error(`json-edit: ${edit.path.slice(0, i + 1).join('.')} does not exist`);
      const value = rest.reduceRight<unknown>((v, k) => ({ [k]: v }), edit.value);
      return insertMember(text, node, key, value, style);
    }
    if (i === edit.path.length - 1) {
      return replaceValue(text, member.value, render(edit.value, lineIndent(text, member.keySpan.start), style));
    }
    node = member.value;
  }
  return text;
}

/** Replaces a value's text; a value written on one line stays on one line (e.g. `"allow": ["Bash(ls)"]`). */
function replaceValue(text: string, at: Span, rendered: string): string {
  const oneLined = text.slice(at.start, at.end).includes('\n') ? rendered : oneLine(JSON.parse(rendered));
  return text.slice(0, at.start) + oneLined + text.slice(at.end);
}

interface Style {
  readonly unit: string;
  readonly eol: string;
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  return { unit: m?.[1] ?? '  ', eol };
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** A value as JSON, nested lines indented under a member whose line starts with `indent`. */
function render(value: unknown, indent: string, style: Style): string {
  const json = JSON.stringify(value, null, style.unit);
  if (json === undefined) throw new Error('json-edit: the value has no JSON form');
  return json.split('\n').join(`${style.eol}${indent}`);
}

function insertMember(text: string, obj: Node & { kind: 'object' }, key: string, value: unknown, style: Style): string {
  const last = obj.members.at(-1);
  const closeAt = obj.end - 1; // the `}`
  if (last === undefined) {
    // `{}` or `{ }`: open it over lines, indented one unit more than the line of the `{`.
    const outer = lineIndent(text, obj.start);
    const inner = outer + style.unit;
    const member = `${JSON.stringify(key)}: ${render(value, inner, style)}`;
    return `${text.slice(0, obj.start + 1)}${style.eol}${inner}${member}${style.eol}${outer}${text.slice(closeAt)}`;
  }
  const multiLine = /\n/.test(text.slice(obj.start, last.keySpan.start));
  if (multiLine) {
    const inner = lineIndent(text, last.keySpan.start);
    const member = `${JSON.stringify(key)}: ${render(value, inner, style)}`;
    return `${text.slice(0, last.value.end)},${style.eol}${inner}${member}${text.slice(last.value.end)}`;
  }
  // A one-line object stays on one line.
  const member = `${JSON.stringify(key)}: ${oneLine(value)}`;
  return `${text.slice(0, last.value.end)}, ${member}${text.slice(last.value.end)}`;
}

/** `{ "a": 1, "b": [ 2 ] }`: JSON escapes newlines inside strings, so every newline is layout. */
function oneLine(value: unknown): string {
  return (JSON.stringify(value, null, 1) ?? 'null').replace(/\n\s*/g, ' ');
}

/** A small recursive-descent scan of valid JSON that records where each value starts and ends. */
export function parseSpans(text: string): Node {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const fail = (what: string): never => {
    throw new Error(`json-edit: expected ${what} at offset ${i}`);
  };
  const str = (): Span => {
    const start = i;
    if (text[i] !== '"') fail('a string');
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('the end of a string');
    i++;
    return { start, end: i };
  };
  const value = (): Node => {
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Member[] = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', start, end: i, members };
      }
      for (;;) {
        ws();
        const keySpan = str();
        const key = JSON.parse(text.slice(keySpan.start, keySpan.end)) as string;
        ws();
        if (text[i] !== ':') fail('":"');
        i++;
        members.push({ key, keySpan, value: value() });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { kind: 'object', start, end: i, members };
        }
        fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: Node[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', start, end: i, items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { kind: 'array', start, end: i, items };
        }
        fail('"," or "]"');
      }
    }
    if (c === '"') return { kind: 'scalar', ...str() };
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (m === null) fail('a JSON value');
    i += (m as RegExpExecArray)[0].length;
    return { kind: 'scalar', start, end: i };
  };
  const root = value();
  ws();
  if (i !== text.length) fail('the end of the text');
  return root;
}
