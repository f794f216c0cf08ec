/**
 * RFC 6570 URI Template syntax: the parsed form of a template, shared by
 * expansion (uri-template.ts) and matching (uri-template-plan.ts and
 * uri-template-vm.ts).
 */

export class UriTemplateError extends Error {
  override name = 'UriTemplateError';
}

/** How each operator expands (RFC 6570 appendix A table). */
export interface Operator {
  readonly char: string;
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifemp: string;
  /** true: reserved characters and pct-triplets pass through (U+R); false: only unreserved (U). */
  readonly reserved: boolean;
}

const op = (char: string, first: string, sep: string, named: boolean, ifemp: string, reserved: boolean): Operator => ({
  char, first, sep, named, ifemp, reserved,
});
const OPERATORS: ReadonlyMap<string, Operator> = new Map([
  ['+', op('+', '', ',', false, '', true)],
  ['#', op('#', '#', ',', false, '', true)],
  ['.', op('.', '.', '.', false, '', false)],
  ['/', op('/', '/', '/', false, '', false)],
  [';', op(';', ';', ';', true, '', false)],
  ['?', op('?', '?', '&', true, '=', false)],
  ['&', op('&', '&', '&', true, '=', false)],
]);
const SIMPLE = op('', '', ',', false, '', false);
/** Operator characters the RFC reserves for future extensions. */
const RESERVED_OPERATORS = '=,!@|';

export interface VarSpec {
  readonly name: string;
  readonly prefix: number | undefined;
  readonly explode: boolean;
}

export interface Expression {
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
}

/** A parsed template: literal text (already expansion-encoded) or an expression. */
export type Part = { readonly literal: string; readonly encoded: string } | Expression;

export const isExpression = (part: Part): part is Expression => 'op' in part;

const utf8 = new TextEncoder();
/** UTF-8 percent-encoding; lone surrogates become U+FFFD rather than throwing. */
export const pctEncode = (ch: string): string =>
  Array.from(utf8.encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const NOT_UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
const NOT_URI_CHAR = /%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/gu;

export function encode(value: string, reserved: boolean): string {
  if (!reserved) return value.replace(NOT_UNRESERVED, pctEncode);
  // Existing pct-triplets are kept as they are (the only 3-char match).
  return value.replace(NOT_URI_CHAR, (m) => (m.length === 3 ? m : pctEncode(m)));
}

const VARNAME_PART = /^(?:\w|%[0-9A-Fa-f]{2})+$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

export function parse(template: string): Part[] {
  const parts: Part[] = [];
  const fail = (message: string, position: number): never => {
    throw new UriTemplateError(`Invalid URI template ${JSON.stringify(template)}: ${message} at position ${position}`);
  };
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf('{', pos);
    const literal = template.slice(pos, open < 0 ? undefined : open);
    const stray = literal.indexOf('}');
    if (stray >= 0) fail("unmatched '}'", pos + stray);
    if (literal !== '') parts.push({ literal, encoded: encode(literal, true) });
    if (open < 0) break;
    const close = template.indexOf('}', open);
    const nested = template.indexOf('{', open + 1);
    if (close < 0 || (nested >= 0 && nested < close)) fail("unclosed '{'", open);
    parts.push(parseExpression(template.slice(open + 1, close), open + 1, fail));
    pos = close + 1;
  }
  return parts;
}

function parseExpression(body: string, start: number, fail: (message: string, position: number) => never): Expression {
  const c = body.charAt(0);
  if (c !== '' && RESERVED_OPERATORS.includes(c)) fail(`reserved operator '${c}'`, start);
  const op = OPERATORS.get(c) ?? SIMPLE;
  let offset = start + op.char.length;
  const vars = body.slice(op.char.length).split(',').map((spec): VarSpec => {
    const at = offset;
    offset += spec.length + 1;
    const explode = spec.endsWith('*');
    const colon = spec.indexOf(':');
    const name = explode ? spec.slice(0, -1) : colon >= 0 ? spec.slice(0, colon) : spec;
    if (!name.split('.').every((p) => VARNAME_PART.test(p))) fail(`invalid variable name ${JSON.stringify(name)}`, at);
    let prefix: number | undefined;
    if (!explode && colon >= 0) {
      const digits = spec.slice(colon + 1);
      if (!PREFIX.test(digits)) fail(`invalid prefix modifier ':${digits}' (expected 1-9999)`, at + colon);
      prefix = Number(digits);
    }
    return { name, prefix, explode };
  });
  return { op, vars };
}
