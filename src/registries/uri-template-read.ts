/**
 * Turns the raw text a URI-template expression matched into variable values:
 * splits lists and name=value pairs, and percent-decodes.
 *
 * In expressions whose expansion percent-encodes reserved characters (simple
 * `{var}`, `{.var}`, `{/var}`, `{;var}`), an encoded reserved character stays
 * encoded: `%2F` in `{name}` comes back as `%2F`, never as a `/` that could
 * make a value such as `..%2F..%2Fetc%2Fpasswd` a path. Query values (`{?q}`,
 * `{&q}`) and reserved expansions (`{+path}`, `{#frag}`) are fully decoded:
 * they may hold raw reserved characters anyway.
 */
import { pctEncode, type Expression, type VarSpec } from './uri-template-syntax.js';

const RESERVED = /[:/?#[\]@!$&'()*+,;=]/g;

/** Decodes each run of pct-triplets that forms valid UTF-8; leaves the rest untouched (never throws). */
export function decode(value: string, keepReserved = false): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return run;
    }
    return keepReserved ? text.replace(RESERVED, pctEncode) : text;
  });
}

/** Collects matched values, checking repeated variables agree. */
export class Captures {
  readonly full = new Map<string, string | string[]>();
  readonly prefixes: [string, string][] = [];
  ok = true;

  set(spec: VarSpec, value: string | string[]): void {
    if (spec.prefix !== undefined && typeof value === 'string') {
      this.prefixes.push([spec.name, value]);
      return;
    }
    const prior = this.full.get(spec.name);
    if (prior !== undefined && String(prior) !== String(value)) this.ok = false;
    this.full.set(spec.name, value);
  }

  result(names: readonly string[]): Record<string, string | string[]> | undefined {
    for (const [name, value] of this.prefixes) {
      const whole = this.full.get(name);
      if (whole === undefined) this.full.set(name, value);
      else if (typeof whole !== 'string' || !whole.startsWith(value)) this.ok = false;
    }
    if (!this.ok) return undefined;
    // fromEntries defines own properties, so even "__proto__" is a plain key.
    return Object.fromEntries(names.flatMap((n) => {
      const v = this.full.get(n);
      return v === undefined ? [] : [[n, v]];
    }));
  }
}

export function readExpression({ op, vars }: Expression, raw: string, out: Captures): void {
  if (op.first !== '' && raw === '') return; // every variable undefined
  const body = raw.slice(op.first.length);
  const keepReserved = !op.reserved && op.char !== '?' && op.char !== '&';
  const dec = (value: string): string => decode(value, keepReserved);
  const single = vars.length === 1 && vars[0]?.explode === false;
  const items = single && !op.named ? [body] : body.split(op.sep);
  if (op.named) {
    const exploded = vars.filter((v) => v.explode);
    const seen = new Set<VarSpec>();
    const lists = new Map<VarSpec, string[]>();
    for (const item of items) {
      const eq = item.indexOf('=');
      const name = eq < 0 ? item : item.slice(0, eq);
      const value = dec(eq < 0 ? '' : item.slice(eq + 1));
      const spec = vars.find((v) => v.name === name && !seen.has(v)) ?? exploded.find((v) => v.name === name);
      if (spec === undefined) {
        // Unknown names are keys of an exploded associative array, which matching does not rebuild.
        if (exploded.length === 0) out.ok = false;
      } else if (spec.explode) {
        const list = lists.get(spec);
        if (list) list.push(value);
        else lists.set(spec, [value]);
      } else {
        seen.add(spec);
        out.set(spec, value);
      }
    }
    for (const [spec, list] of lists) out.set(spec, list);
    return;
  }
  let at = 0;
  vars.forEach((spec, j) => {
    const after = vars.length - j - 1;
    if (spec.explode) {
      const take = Math.max(0, items.length - at - after);
      if (take > 0 && raw !== '') out.set(spec, items.slice(at, at + take).map(dec));
      at += take;
    } else if (at < items.length) {
      // The last variable keeps any surplus items, so nothing matched is silently dropped.
      const take = after === 0 ? items.length - at : 1;
      out.set(spec, dec(items.slice(at, at + take).join(op.sep)));
      at += take;
    }
  });
}
