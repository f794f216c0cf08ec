/**
 * What a URI must look like to be an expansion of a template, as a small
 * pattern tree: one capture per expression holding its raw text, which
 * uri-template-read.ts then splits and decodes. uri-template-vm.ts runs the
 * tree in time linear in the URI length.
 *
 * The tree reads like a regular expression and picks the same reading a
 * backtracking regular expression would (leftmost, greedy); the tests check
 * it against one built from the same tree.
 */
import { isExpression, type Part } from './uri-template-syntax.js';

export type PatternNode =
  /** One of these strings (the first that leads to a match wins). */
  | { readonly kind: 'literal'; readonly options: readonly string[] }
  /** A run of at least `min` UTF-16 code units, none of them in `exclude`. */
  | { readonly kind: 'run'; readonly exclude: string; readonly min: 0 | 1 }
  /** The body, or nothing (the body preferred). */
  | { readonly kind: 'optional'; readonly body: readonly PatternNode[] }
  /**
   * The text the body matched, for one expression. `atomic`: the body's first
   * reading is final (a later failure never makes it give characters back),
   * which keeps the readings of adjacent ambiguous expressions from multiplying.
   */
  | { readonly kind: 'capture'; readonly body: readonly PatternNode[]; readonly atomic: boolean };

const literal = (...options: string[]): PatternNode => ({ kind: 'literal', options });
const run = (exclude: Iterable<string>, min: 0 | 1): PatternNode => ({ kind: 'run', exclude: [...new Set(exclude)].join(''), min });
const optional = (...body: PatternNode[]): PatternNode => ({ kind: 'optional', body });

/**
 * Builds the anchored pattern for a parsed template.
 *
 * Only the first expression whose characters could also be what follows it
 * is free to give characters back. Later ambiguous expressions stop at the
 * next literal's first character, or (when there is none to exclude) are
 * atomic.
 */
export function planMatch(parts: readonly Part[]): PatternNode[] {
  const nodes: PatternNode[] = [];
  let sawAmbiguous = false;
  parts.forEach((part, i) => {
    if (!isExpression(part)) {
      const { literal: text, encoded } = part;
      nodes.push(text === encoded ? literal(text) : literal(text, encoded));
      return;
    }
    const { op, vars } = part;
    // Characters that later literals and operators need must not be swallowed by this expression.
    const later = new Set(parts.slice(i + 1).flatMap((p) => (isExpression(p) ? [p.op.first, p.op.sep] : [...p.literal])));
    const exclude = new Set<string>();
    if (op.reserved) {
      for (const c of '?#') if (later.has(c)) exclude.add(c);
    } else {
      // U-expansion encodes every reserved character but ',' (lists) and '=' (exploded maps). Raw
      // ones are tolerated (clients differ in what they escape) unless the template needs them
      // later; only query values may hold a raw '/' or '?'.
      const query = op.char === '?' || op.char === '&';
      const own = (op.sep === ',' ? ',' : '') + (vars.some((v) => v.explode) ? '=' : '');
      for (const c of query ? '#&' : op.char === ';' ? '/?#;' : '/?#') exclude.add(c);
      for (const c of ":/?#[]@!$&'()*+;=,") if (later.has(c) && !own.includes(c)) exclude.add(c);
    }
    // Without explode, at most one item per variable: bound the repetition by unrolling it.
    const bounded = !vars.some((v) => v.explode);
    if (!bounded) exclude.delete(op.sep); // one flat run spans all items and their separators
    const itemExclude = new Set(exclude);
    // A lone variable may hold the separator (a list joined by ',', or a label with dots).
    if (bounded && vars.length > 1) itemExclude.add(op.sep);

    const next = parts[i + 1];
    const follower = next === undefined ? undefined : isExpression(next) ? next.op.first || null : next.literal.charAt(0);
    let atomic = false;
    if (follower === null || (follower !== undefined && !itemExclude.has(follower))) {
      if (!sawAmbiguous) sawAmbiguous = true;
      else if (follower === null || (!bounded && follower === op.sep)) atomic = true;
      else {
        exclude.add(follower);
        itemExclude.add(follower);
      }
    }

    let body: PatternNode[];
    if (!bounded) {
      body = [run(exclude, 0)];
    } else {
      // ';' writes an empty value as a bare name, so "name=" would be a second, non-canonical reading.
      const item = op.named
        ? [literal(...vars.map((v) => v.name)), optional(literal('='), run(itemExclude, op.ifemp === '' ? 1 : 0))]
        : [run(itemExclude, 0)];
      let rest: PatternNode[] = [];
      for (let j = 1; j < vars.length; j++) rest = [optional(literal(op.sep), ...item, ...rest)];
      body = [...item, ...rest];
    }
    if (op.first !== '') body = [optional(literal(op.first), ...body)];
    nodes.push({ kind: 'capture', body, atomic });
  });
  return nodes;
}
