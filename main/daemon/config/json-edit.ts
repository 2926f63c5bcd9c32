/**
 * agentteam.json as a person writes it — JSON with comments and trailing commas (issue 39) — read
 * and edited through jsonc-parser (the parser and editor of VS Code's settings.json), never by hand.
 *
 * Each edit changes one key (issue 17: the UI writes the keys a person changed, and nothing else):
 * jsonc-parser's `modify` says where the value goes (the span it replaces, or the member it inserts
 * after, with its comma); this module says how it looks — a one-line value or object stays on one
 * line, a new member takes the indentation of its siblings, the file's line endings and BOM are kept.
 * Every other byte stays as the person left it, comments included.
 *
 * A key is removed by cutting its member out (issue 39: "a budget cannot be set back to none"). Not
 * with `modify(…, undefined)`: that cuts from the end of the previous member, which deletes a comment
 * written above the removed key, and one written after the previous member moves onto another line.
 */
import {
  applyEdits,
  createScanner,
  modify,
  parseTree,
  printParseErrorCode,
  type Edit,
  type Node,
  type ParseError,
  type SyntaxKind,
} from 'jsonc-parser';

/** The scanner's token kinds used here (`SyntaxKind` is a const enum, which isolated modules cannot read). */
const Kind = {
  comma: 5 as SyntaxKind,
  lineComment: 12 as SyntaxKind,
  blockComment: 13 as SyntaxKind,
  lineBreak: 14 as SyntaxKind,
  space: 15 as SyntaxKind,
  end: 17 as SyntaxKind,
} as const;

/** Object keys, and array indexes that step into an element that exists (issue 14: `['agents', 0, 'allow']`). */
export type JsonPath = readonly (string | number)[];

/** Sets one value, e.g. `['channels', 'local', 'silenceWatchdog', 'thresholdSeconds']`, or removes one key. */
export type JsonEdit =
  { readonly path: JsonPath; readonly value: unknown } | { readonly path: JsonPath; readonly remove: true };

/** What jsonc-parser accepts in agentteam.json: comments and trailing commas, not an empty file. */
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false } as const;

/** The text is not JSON with comments: what is wrong, and where (1-based line and column). */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'JsonSyntaxError';
  }
}

/** Parses JSON with comments (a leading BOM is skipped); throws `JsonSyntaxError` at the first problem. */
export function parseJsonc(text: string): unknown {
  return value(syntaxTree(withoutBom(text)));
}

/** Applies the edits in order, each to the text the previous one produced; throws before changing anything. */
export function applyJsonEdits(text: string, edits: readonly JsonEdit[]): string {
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  let out = withoutBom(text);
  for (const edit of edits) out = applyEdits(out, editsFor(out, edit));
  return bom + out;
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function syntaxTree(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
    throw new JsonSyntaxError(
      REASONS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error),
      line,
      column,
    );
  }
  if (root === undefined) throw new JsonSyntaxError('expected a JSON value', 1, 1);
  return root;
}

const REASONS: Record<string, string> = {
  InvalidSymbol: 'unexpected character(s)',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'expected a key in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," (or the end of the object or array)',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the file',
  InvalidCommentToken: 'not a valid comment',
  UnexpectedEndOfComment: 'a /* comment */ is not closed',
  UnexpectedEndOfString: 'a string is not closed on its line',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'not a valid \\u escape',
  InvalidEscapeCharacter: 'not a valid escape (\\n, \\", \\\\ …)',
  InvalidCharacter: 'a control character inside a string (write it as an escape)',
};

function value(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries((node.children ?? []).map((p) => [p.children![0]!.value, value(p.children![1]!)]));
    case 'array':
      return (node.children ?? []).map(value);
    default:
      return node.value;
  }
}

interface Style {
  /** One level of indentation, e.g. two spaces or a tab. */
  readonly unit: string;
  readonly eol: string;
}

function editsFor(text: string, edit: JsonEdit): Edit[] {
  const name = (length: number) => edit.path.slice(0, length).join('.');
  if (edit.path.length === 0) throw new Error('json-edit: an edit needs a path');
  const root = syntaxTree(text);
  if (root.type !== 'object') throw new Error('json-edit: the top level is not an object');
  // Walk the path as far as it exists; a key written twice is refused (which one is meant?).
  let node: Node = root;
  let depth = 0;
  for (; depth < edit.path.length; depth++) {
    const key = edit.path[depth]!;
    if (typeof key === 'number') {
      // Array elements are only stepped into (never inserted): the path names one that exists.
      const item = node.type === 'array' ? node.children?.[key] : undefined;
      if (item === undefined) throw new Error(`json-edit: ${name(depth + 1)} does not exist`);
      node = item;
      continue;
    }
    if (node.type !== 'object') throw new Error(`json-edit: ${name(depth)} is not an object`);
    const members = (node.children ?? []).filter((p) => p.children?.[0]?.value === key);
    if (members.length > 1)
      throw new Error(`json-edit: ${name(depth + 1)} is written ${members.length} times; keep one, then save again`);
    const member = members[0];
    if (member === undefined) break;
    node = member.children![1]!;
  }
  const missing = edit.path.slice(depth + 1);
  if ('remove' in edit) {
    if (depth < edit.path.length) return []; // nothing to remove
    if (typeof edit.path.at(-1) === 'number') throw new Error(`json-edit: ${name(depth)} is an array element`);
    return removal(text, node.parent!);
  }
  if (depth < edit.path.length && missing.some((k) => typeof k === 'number'))
    throw new Error(`json-edit: ${name(depth + 1)} does not exist`);
  if (JSON.stringify(edit.value) === undefined) throw new Error('json-edit: the value has no JSON form');

  // Where the value goes (and the comma) is jsonc-parser's; how it looks is the file's.
  const [at] = modify(text, [...edit.path], edit.value, {});
  if (at === undefined) return [];
  const style = detectStyle(text);
  if (depth === edit.path.length) {
    // Replaces the existing value: on one line if it was on one line (e.g. `"allow": ["Bash(ls)"]`).
    const oneLined = !text.slice(node.offset, node.offset + node.length).includes('\n');
    const indent = lineIndent(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
    return [{ ...at, content: oneLined ? oneLine(edit.value) : render(edit.value, indent, style) }];
  }
  // Inserts a member into `node`, the innermost object that exists, with the missing objects of the path.
  const key = edit.path[depth] as string;
  const inserted = missing.reduceRight<unknown>((v, k) => ({ [k]: v }), edit.value);
  return insertion(text, node, at, key, inserted, style);
}

function insertion(text: string, obj: Node, at: Edit, key: string, value: unknown, style: Style): Edit[] {
  const span = text.slice(obj.offset, obj.offset + obj.length);
  const last = obj.children?.at(-1);
  if (last === undefined) {
    // `{}` or `{ }`: opened over lines, indented one unit more than the line of the `{`.
    const outer = lineIndent(text, obj.offset);
    const inner = outer + style.unit;
    return [
      {
        ...at,
        content: `${style.eol}${inner}${JSON.stringify(key)}: ${render(value, inner, style)}${style.eol}${outer}`,
      },
    ];
  }
  // A one-line object stays on one line.
  if (!span.includes('\n')) return [{ ...at, content: `, ${JSON.stringify(key)}: ${oneLine(value)}` }];
  const indent = lineIndent(text, last.offset);
  const member = `${style.eol}${indent}${JSON.stringify(key)}: ${render(value, indent, style)}`;
  // After the last member `at.offset`: a comment on the rest of its line stays with it, above the new member.
  const after = restOfLine(text, at.offset);
  if (after.commentEnd === null) return [{ ...at, content: `,${member}` }];
  return after.comma
    ? [{ offset: after.commentEnd, length: 0, content: `${member},` }]
    : [
        { offset: at.offset, length: 0, content: ',' },
        { offset: after.commentEnd, length: 0, content: member },
      ];
}

/**
 * The cut that removes one member (`"key": value`) and exactly one comma. A member on lines of its
 * own goes with those lines (and a comment after it on its last line: it spoke of that member); a
 * comment anywhere else stays where it is.
 */
function removal(text: string, member: Node): Edit[] {
  const obj = member.parent!;
  const index = obj.children!.indexOf(member);
  const start = member.offset;
  const end = member.offset + member.length;
  const after = restOfLine(text, end);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const ownLines = /^[ \t]*$/.test(text.slice(lineStart, start)) && after.lineEnd !== null;
  const next = nextToken(text, end);
  const edits: Edit[] = [];
  let cut: { from: number; to: number };
  if (ownLines) {
    // From the start of its line to the start of the next line, comma and trailing comment included.
    cut = { from: lineStart, to: after.lineEnd! };
    if (!after.comma && next.kind !== Kind.comma && index > 0) edits.push(commaAfter(text, obj, index - 1));
  } else if (next.kind === Kind.comma) {
    // `"a": 1, "b": 2` → `"b": 2`: the member, its comma and the spaces after it.
    cut = { from: start, to: next.offset + 1 + /^[ \t]*/.exec(text.slice(next.offset + 1))![0].length };
  } else {
    // The last member on a line: the spaces before it, and the comma after the previous member.
    cut = { from: precedingSpaces(text, start), to: end };
    if (index > 0) edits.push(commaAfter(text, obj, index - 1));
  }
  if (ownLines && !after.comma && next.kind === Kind.comma) edits.push({ offset: next.offset, length: 1, content: '' });
  edits.push({ offset: cut.from, length: cut.to - cut.from, content: '' });
  return edits;
}

/** The comma that follows member `index` of `obj`. */
function commaAfter(text: string, obj: Node, index: number): Edit {
  const member = obj.children![index]!;
  const comma = nextToken(text, member.offset + member.length);
  return { offset: comma.offset, length: comma.kind === Kind.comma ? 1 : 0, content: '' };
}

/** The next token from `offset` that is not whitespace, a line break or a comment. */
function nextToken(text: string, offset: number): { kind: SyntaxKind; offset: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const kind = scanner.scan();
    if (kind !== Kind.space && kind !== Kind.lineBreak && kind !== Kind.lineComment && kind !== Kind.blockComment)
      return { kind, offset: scanner.getTokenOffset() };
  }
}

/**
 * The rest of the line from `offset`: whether a comma follows, where the comments on it end (null:
 * none), and where the next line starts (null: something other than a comma or comments follows).
 */
function restOfLine(
  text: string,
  offset: number,
): { comma: boolean; commentEnd: number | null; lineEnd: number | null } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let comma = false;
  let commentEnd: number | null = null;
  for (;;) {
    const kind = scanner.scan();
    const end = scanner.getTokenOffset() + scanner.getTokenLength();
    if (kind === Kind.space) continue;
    if (kind === Kind.comma && !comma && commentEnd === null) comma = true;
    else if (kind === Kind.lineComment) commentEnd = end;
    else if (kind === Kind.blockComment && !text.slice(scanner.getTokenOffset(), end).includes('\n')) commentEnd = end;
    else if (kind === Kind.lineBreak) return { comma, commentEnd, lineEnd: end };
    else return { comma, commentEnd, lineEnd: kind === Kind.end ? text.length : null };
  }
}

function precedingSpaces(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i;
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
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);
}

/** `{ "a": 1, "b": [ 2 ] }`: JSON escapes newlines inside strings, so every newline is layout. */
function oneLine(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}
