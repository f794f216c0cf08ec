/**
 * The YAML front matter of a SKILL.md: the subset the Agent Skills format uses
 * (block mappings, plain / quoted / block scalars, sequences of scalars), parsed in one
 * pass over the lines. Anything outside the subset (anchors, aliases, tags, flow
 * mappings, multi-line quoted scalars) is refused with the line it is on, never
 * guessed at: the server publishes this object as the skill's `frontmatter`, and a
 * client compares it with what a full YAML parser reads from the file.
 */

/** The largest front matter block parsed (the rest of a SKILL.md is not bounded here). */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
const MAX_DEPTH = 16;

export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | { [key: string]: FrontmatterValue };
export type Frontmatter = { [key: string]: FrontmatterValue };

/** Malformed or unsupported front matter; `line` is 1-based in the whole file. */
export class FrontmatterError extends Error {
  override readonly name = 'FrontmatterError';
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

export interface ParsedSkillFile {
  frontmatter: Frontmatter;
  /** The Markdown after the closing `---`. */
  body: string;
}

// The opening and closing fences: `---` alone on a line (spaces after the closing one are allowed).
const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/g;

/** Splits a SKILL.md into its front matter object and body. */
export function parseSkillFile(text: string): ParsedSkillFile {
  const open = OPEN.exec(text);
  if (open === null) throw new FrontmatterError('SKILL.md must begin with YAML front matter: a line "---", the fields, and a closing "---"', 1);
  CLOSE.lastIndex = open[0].length - 1;
  const close = CLOSE.exec(text);
  if (close === null) throw new FrontmatterError('the front matter has no closing "---" line', undefined);
  const block = text.slice(open[0].length, close.index);
  if (block.length > MAX_FRONTMATTER_BYTES) throw new FrontmatterError(`the front matter is longer than ${MAX_FRONTMATTER_BYTES} characters`, 2);
  return { frontmatter: parseFrontmatter(block, 2), body: text.slice(close.index + close[0].length) };
}

interface Line {
  readonly no: number;
  readonly indent: number;
  /** The line without its indentation (trailing spaces kept for block scalars). */
  readonly text: string;
  readonly blank: boolean;
}

/** Parses the text between the fences; `firstLine` numbers its first line in the file. */
export function parseFrontmatter(block: string, firstLine = 1): Frontmatter {
  const lines: Line[] = block.split(/\r?\n/).map((raw, i) => {
    const no = firstLine + i;
    const indent = raw.length - raw.replace(/^ +/, '').length;
    const text = raw.slice(indent);
    if (text.startsWith('\t')) throw new FrontmatterError('indent with spaces, not tabs', no);
    return { no, indent, text, blank: text.trim() === '' || text.startsWith('#') };
  });
  const parser = new Parser(lines);
  const first = parser.nextContent();
  if (first === undefined) return {};
  if (first.indent !== 0) throw new FrontmatterError('the first field must not be indented', first.no);
  const value = parser.mapping(0, 0);
  const rest = parser.nextContent();
  if (rest !== undefined) throw new FrontmatterError('unexpected indentation', rest.no);
  return value;
}

class Parser {
  #at = 0;
  constructor(readonly lines: readonly Line[]) {}

  /** The next line that is neither blank nor a comment (not consumed). */
  nextContent(): Line | undefined {
    while (this.#at < this.lines.length && this.lines[this.#at]!.blank) this.#at++;
    return this.lines[this.#at];
  }

  mapping(indent: number, depth: number): Frontmatter {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nested deeper than ${MAX_DEPTH} levels`, this.nextContent()?.no);
    const out: Frontmatter = {};
    for (let line = this.nextContent(); line !== undefined && line.indent >= indent; line = this.nextContent()) {
      if (line.indent > indent) throw new FrontmatterError('unexpected indentation', line.no);
      if (line.text.startsWith('- ') || line.text === '-') throw new FrontmatterError('a list item where a "key: value" field was expected', line.no);
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(out, key)) throw new FrontmatterError(`the field ${JSON.stringify(key)} appears twice`, line.no);
      this.#at++;
      Object.defineProperty(out, key, { value: this.value(rest, line, indent, depth), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** The value after `key:` (`rest`, comment stripped later), on this line or the lines below. */
  value(rest: string, line: Line, indent: number, depth: number): FrontmatterValue {
    const inline = stripComment(rest);
    if (inline === '') {
      const next = this.nextContent();
      if (next === undefined) return null;
      const isItem = next.text.startsWith('- ') || next.text === '-';
      if (next.indent > indent) return isItem ? this.sequence(next.indent, depth + 1) : this.mapping(next.indent, depth + 1);
      if (next.indent === indent && isItem) return this.sequence(indent, depth + 1);
      return null;
    }
    if (inline[0] === '|' || inline[0] === '>') return this.blockScalar(inline, line, indent);
    const scalar = inlineValue(inline, line.no);
    if (typeof scalar === 'object' || !isPlain(inline)) return scalar;
    return this.plainContinuation(inline, scalar, indent);
  }

  /** A plain scalar may go on over more-indented lines, folded with spaces (blank lines: newlines). */
  plainContinuation(first: string, resolved: FrontmatterValue, indent: number): FrontmatterValue {
    const parts = [first];
    let blanks = 0;
    while (this.#at < this.lines.length) {
      const line = this.lines[this.#at]!;
      if (line.text.trim() === '') {
        blanks++;
        this.#at++;
        continue;
      }
      if (line.indent <= indent || line.text.startsWith('#')) break;
      const text = stripComment(line.text);
      if (/:(?:\s|$)/.test(text)) throw new FrontmatterError('a "key: value" inside a multi-line value: quote the value', line.no);
      parts.push(blanks > 0 ? '\n'.repeat(blanks) : ' ', text);
      blanks = 0;
      this.#at++;
    }
    return parts.length === 1 ? resolved : parts.join('');
  }

  sequence(indent: number, depth: number): FrontmatterValue[] {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nested deeper than ${MAX_DEPTH} levels`, this.nextContent()?.no);
    const out: FrontmatterValue[] = [];
    for (let line = this.nextContent(); line !== undefined && line.indent === indent && (line.text.startsWith('- ') || line.text === '-'); line = this.nextContent()) {
      this.#at++;
      const rest = stripComment(line.text.slice(1).trimStart());
      if (rest === '') {
        const next = this.nextContent();
        if (next !== undefined && next.indent > indent) throw new FrontmatterError('a list item holding a block is not supported: write the item on the "- " line', next.no);
        out.push(null);
        continue;
      }
      if (/^[^'"[{][^:]*:(?:\s|$)/.test(rest)) throw new FrontmatterError('a list of mappings is not supported in front matter', line.no);
      if (rest[0] === '|' || rest[0] === '>') throw new FrontmatterError('a block scalar inside a list is not supported', line.no);
      out.push(inlineValue(rest, line.no));
    }
    const stray = this.nextContent();
    if (stray !== undefined && stray.indent > indent) throw new FrontmatterError('unexpected indentation', stray.no);
    return out;
  }

  /** `|` (literal) or `>` (folded), with an optional chomping indicator and indentation digit. */
  blockScalar(header: string, line: Line, indent: number): string {
    const match = /^([|>])([-+]?)([1-9]?)([-+]?)$/.exec(header);
    if (match === null || (match[2] !== '' && match[4] !== '')) throw new FrontmatterError(`bad block scalar header ${JSON.stringify(header)}`, line.no);
    const folded = match[1] === '>';
    const chomp = match[2] || match[4];
    const collected: Line[] = [];
    while (this.#at < this.lines.length) {
      const next = this.lines[this.#at]!;
      if (next.text.trim() !== '' && next.indent <= indent) break;
      collected.push(next);
      this.#at++;
    }
    const firstText = collected.find((l) => l.text.trim() !== '');
    const base = match[3] ? indent + Number(match[3]) : (firstText?.indent ?? indent + 1);
    const rows = collected.map((l) => {
      if (l.text.trim() === '') return { text: '', more: false, empty: true };
      if (l.indent < base) throw new FrontmatterError('a block scalar line is less indented than its first line', l.no);
      return { text: ' '.repeat(l.indent - base) + l.text, more: l.indent > base, empty: false };
    });
    let last = rows.length;
    while (last > 0 && rows[last - 1]!.empty) last--;
    const content = rows.slice(0, last);
    const trailing = rows.length - last;
    const text = folded ? fold(content) : content.map((r) => r.text).join('\n');
    if (content.length === 0) return chomp === '+' ? '\n'.repeat(trailing) : '';
    if (chomp === '-') return text;
    if (chomp === '+') return text + '\n' + '\n'.repeat(trailing);
    return text + '\n';
  }
}

/** Folded (`>`) content: adjacent lines of the base indentation join with a space, N empty lines between them are N newlines; around more-indented lines every break stays. */
function fold(rows: readonly { text: string; more: boolean; empty: boolean }[]): string {
  let text = '';
  let empties = 0;
  let prev: { more: boolean } | undefined;
  for (const row of rows) {
    if (row.empty) {
      empties++;
      continue;
    }
    if (prev === undefined) text += '\n'.repeat(empties);
    else if (!prev.more && !row.more) text += empties > 0 ? '\n'.repeat(empties) : ' ';
    else text += '\n'.repeat(1 + empties);
    text += row.text;
    empties = 0;
    prev = row;
  }
  return text;
}

function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, end } = quoted(text, 0, line.no);
    const after = text.slice(end);
    if (!/^[ ]*:(?:\s|$)/.test(after)) throw new FrontmatterError('expected ":" after the quoted key', line.no);
    return { key: value, rest: after.slice(after.indexOf(':') + 1).trim() };
  }
  const colon = /:(?:\s|$)/.exec(text);
  if (colon === null) throw new FrontmatterError(`expected "key: value" (got ${JSON.stringify(text.slice(0, 40))})`, line.no);
  const key = text.slice(0, colon.index).trimEnd();
  if (key === '' || /^[?&*!|>%@`{[\]}#,-]/.test(key) || /\s#/.test(key)) throw new FrontmatterError(`${JSON.stringify(key)} is not a supported key: quote it`, line.no);
  if (typeof resolvePlain(key) !== 'string') throw new FrontmatterError(`the key ${JSON.stringify(key)} would not be read as text: quote it`, line.no);
  return { key, rest: text.slice(colon.index + 1).trim() };
}

/** Drops a ` # comment` after a value: a "#" after a space or tab, outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  const flow = text.startsWith('[');
  // The last character outside quotes that is not a space (a quote after "[" or "," opens an item).
  let last = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === undefined && c !== ' ' && c !== '"' && c !== "'") last = c;
    if (quote === '"' && c === '\\') i++;
    else if (quote === "'" && c === "'" && text[i + 1] === "'") i++;
    else if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      // A quote opens a quoted scalar only where one may start: first, or an item of a flow list.
      if (i === 0 || (flow && (last === '[' || last === ','))) quote = c;
      else last = c;
    } else if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) return text.slice(0, i).trim();
  }
  return text.trim();
}

function isPlain(text: string): boolean {
  return !/^["'[{]/.test(text);
}

/** A value written on one line: quoted, a flow list of scalars, `{}`, or a plain scalar. */
function inlineValue(text: string, no: number): FrontmatterValue {
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, end } = quoted(text, 0, no);
    if (text.slice(end).trim() !== '') throw new FrontmatterError('text after the closing quote', no);
    return value;
  }
  if (text.startsWith('[')) return flowSequence(text, no);
  if (text.startsWith('{')) {
    if (/^\{\s*\}$/.test(text)) return {};
    throw new FrontmatterError('flow mappings ({ a: b }) are not supported: write the fields on their own indented lines', no);
  }
  if (/^[&*!%@`]/.test(text)) throw new FrontmatterError(`anchors, aliases, tags and directives are not supported (${JSON.stringify(text.slice(0, 20))}): quote the value`, no);
  if (/^[?:-](?:\s|$)/.test(text)) throw new FrontmatterError(`${JSON.stringify(text.slice(0, 20))} is not a supported value: quote it`, no);
  if (/:(?:\s|$)/.test(text)) throw new FrontmatterError('a ": " inside a value: quote the value', no);
  return resolvePlain(text, no);
}

function flowSequence(text: string, no: number): FrontmatterValue[] {
  const out: FrontmatterValue[] = [];
  let i = 1;
  const skip = (): void => {
    while (text[i] === ' ') i++;
  };
  skip();
  if (text[i] === ']') {
    if (text.slice(i + 1).trim() !== '') throw new FrontmatterError('text after "]"', no);
    return out;
  }
  for (;;) {
    skip();
    if (text[i] === '"' || text[i] === "'") {
      const { value, end } = quoted(text, i, no);
      out.push(value);
      i = end;
    } else {
      const start = i;
      while (i < text.length && text[i] !== ',' && text[i] !== ']') i++;
      const item = text.slice(start, i).trim();
      if (item === '' || /^[[{&*!|>%@`]/.test(item) || /:(?:\s|$)/.test(item)) throw new FrontmatterError('a flow list holds plain or quoted scalars only', no);
      out.push(resolvePlain(item, no));
    }
    skip();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ']') {
      if (text.slice(i + 1).trim() !== '') throw new FrontmatterError('text after "]"', no);
      return out;
    }
    throw new FrontmatterError('a flow list must close with "]" on the same line', no);
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029' };
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** A quoted scalar starting at `start`, closed on the same line. */
function quoted(text: string, start: number, no: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c !== "'") value += c;
      else if (text[i + 1] === "'") {
        value += "'";
        i++;
      } else return { value, end: i + 1 };
      continue;
    }
    if (c === '"') return { value, end: i + 1 };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const e = text[++i] ?? '';
    const hex = HEX_LENGTH[e];
    if (hex !== undefined) {
      const digits = text.slice(i + 1, i + 1 + hex);
      if (!new RegExp(`^[0-9A-Fa-f]{${hex}}$`).test(digits)) throw new FrontmatterError(`bad \\${e} escape`, no);
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) throw new FrontmatterError(`bad \\${e} escape`, no);
      value += String.fromCodePoint(code);
      i += hex;
    } else if (ESCAPES[e] !== undefined) value += ESCAPES[e];
    else throw new FrontmatterError(`unknown escape \\${e} in a double-quoted value`, no);
  }
  throw new FrontmatterError('a quoted value must close on the same line', no);
}

/** YAML 1.2 core schema for plain scalars (what the usual YAML parsers read). */
function resolvePlain(text: string, no?: number): FrontmatterValue {
  if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text) || /^\.(?:nan|NaN|NAN)$/.test(text)) {
    throw new FrontmatterError(`${text} has no JSON form: quote it`, no);
  }
  return text;
}
