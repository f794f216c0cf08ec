/**
 * RFC 6570 URI Templates (levels 1–4): expansion, plus the reverse — matching a
 * concrete URI against a template, which is how MCP resolves `resources/read`
 * against registered resource templates. Matching takes time linear in the
 * URI length (uri-template-vm.ts), whatever the template and the URI.
 */
import { readExpression, Captures } from './uri-template-read.js';
import { planMatch } from './uri-template-plan.js';
import { encode, isExpression, parse, UriTemplateError, type Expression, type Part } from './uri-template-syntax.js';
import { compileProgram, runProgram, type MatchProgram, type MatchWork } from './uri-template-vm.js';

export { UriTemplateError } from './uri-template-syntax.js';

export type UriVariableValue = string | readonly string[] | Readonly<Record<string, string>>;

function lookup(variables: Readonly<Record<string, UriVariableValue | undefined>>, name: string): UriVariableValue | undefined {
  // hasOwn: a variable called "constructor" must not pick up Object.prototype members.
  return Object.hasOwn(variables, name) ? variables[name] : undefined;
}

function expandExpression(e: Expression, variables: Readonly<Record<string, UriVariableValue | undefined>>): string {
  const { op } = e;
  const enc = (s: string): string => encode(s, op.reserved);
  const named = (name: string, value: string): string => (value === '' ? name + op.ifemp : `${name}=${value}`);
  const out: string[] = [];
  for (const spec of e.vars) {
    const value = lookup(variables, spec.name);
    if (value === undefined) continue;
    if (typeof value === 'string') {
      // Prefix lengths count Unicode code points, not UTF-16 units or bytes.
      const v = enc(spec.prefix === undefined ? value : Array.from(value).slice(0, spec.prefix).join(''));
      out.push(op.named ? named(spec.name, v) : v);
      continue;
    }
    if (spec.prefix !== undefined) {
      throw new UriTemplateError(`Prefix modifier on composite variable ${JSON.stringify(spec.name)}`);
    }
    const list = isList(value) ? value.map(enc) : undefined;
    const pairs = isList(value) ? [] : Object.entries(value).map(([k, v]) => [enc(k), enc(v)] as const);
    if (list?.length === 0 || (list === undefined && pairs.length === 0)) continue; // empty composite = undefined
    if (!spec.explode) {
      const joined = list ? list.join(',') : pairs.map(([k, v]) => `${k},${v}`).join(',');
      out.push(op.named ? named(spec.name, joined) : joined);
    } else if (list) {
      out.push(...list.map((v) => (op.named ? named(spec.name, v) : v)));
    } else {
      out.push(...pairs.map(([k, v]) => (op.named ? named(k, v) : `${k}=${v}`)));
    }
  }
  return out.length === 0 ? '' : op.first + out.join(op.sep);
}

// Array.isArray does not narrow readonly arrays out of a union.
const isList = (value: readonly string[] | Readonly<Record<string, string>>): value is readonly string[] => Array.isArray(value);

type Variables = Record<string, string | string[]>;
let matchCountingWork: (template: UriTemplate, uri: string, work: MatchWork) => Variables | undefined;

/** Internal (not exported by the package): `template.match(uri)`, adding the matcher's work to `work.steps`. */
export function matchCounting(template: UriTemplate, uri: string, work: MatchWork): Variables | undefined {
  return matchCountingWork(template, uri, work);
}

export class UriTemplate {
  readonly template: string;
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  #program: MatchProgram | undefined;

  constructor(template: string) {
    this.template = template;
    this.#parts = parse(template);
    const names = this.#parts.flatMap((p) => (isExpression(p) ? p.vars.map((v) => v.name) : []));
    this.variableNames = [...new Set(names)];
  }

  expand(variables: Readonly<Record<string, UriVariableValue | undefined>>): string {
    return this.#parts.map((p) => (isExpression(p) ? expandExpression(p, variables) : p.encoded)).join('');
  }

  /** Returns the variables if `uri` is an expansion of this template, else undefined. Values are percent-decoded. */
  match(uri: string): Record<string, string | string[]> | undefined {
    return this.#match(uri, undefined);
  }

  static {
    matchCountingWork = (template, uri, work) => template.#match(uri, work);
  }

  #match(uri: string, work: MatchWork | undefined): Record<string, string | string[]> | undefined {
    this.#program ??= compileProgram(planMatch(this.#parts));
    const slots = runProgram(this.#program, uri, work);
    if (slots === undefined) return undefined;
    const out = new Captures();
    this.#parts.filter(isExpression).forEach((e, i) => {
      const start = slots[2 * i]!;
      readExpression(e, start < 0 ? '' : uri.slice(start, slots[2 * i + 1]), out);
    });
    return out.result(this.variableNames);
  }

  toString(): string {
    return this.template;
  }
}

/** True when `value` contains at least one `{expression}` (valid or not). */
export function isUriTemplate(value: string): boolean {
  return /\{[^{}]+\}/.test(value);
}
