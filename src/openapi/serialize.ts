/**
 * Parameter values on the wire, per OpenAPI's `style`/`explode` (3.0 and 3.1 agree):
 * path `simple` (default), `label`, `matrix`; query `form` (default, explode true),
 * `spaceDelimited`, `pipeDelimited`, `deepObject`; header `simple`; cookie `form`.
 * Values are percent-encoded (RFC 3986 unreserved characters stay; `allowReserved` keeps the
 * reserved ones in query values). A parameter described by `content` is sent as its JSON.
 */
import type { OpenApiParameter } from './operations.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encodeURIComponent plus the sub-delimiters it leaves (`!'()*`). */
export const encode = (text: string): string => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const encodeReserved = (text: string): string => encodeURI(text).replace(/[?#&=+]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');

const scalar = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value) ?? '');

/** A path parameter's text, already encoded (the `{name}` of the template is replaced by it). */
export function pathValue(p: OpenApiParameter, value: unknown): string {
  if (p.contentType !== undefined) return encode(JSON.stringify(value));
  const style = p.style ?? 'simple';
  const explode = p.explode ?? false;
  const name = encode(p.name);
  if (Array.isArray(value)) {
    const items = value.map((v) => encode(scalar(v)));
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? items.map((v) => `;${name}=${v}`).join('') : `;${name}=${items.join(',')}`;
    return items.join(',');
  }
  if (isObject(value)) {
    const pairs = Object.entries(value).map(([k, v]) => [encode(k), encode(scalar(v))] as const);
    if (style === 'label') return `.${pairs.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? pairs.map(([k, v]) => `;${k}=${v}`).join('') : `;${name}=${pairs.map(([k, v]) => `${k},${v}`).join(',')}`;
    return pairs.map(([k, v]) => (explode ? `${k}=${v}` : `${k},${v}`)).join(',');
  }
  const text = encode(scalar(value));
  if (style === 'label') return `.${text}`;
  if (style === 'matrix') return `;${name}=${text}`;
  return text;
}

/** A query parameter's `name=value` pairs, encoded, to be joined with `&`. */
export function queryPairs(p: OpenApiParameter, value: unknown): string[] {
  const name = encode(p.name);
  const enc = p.allowReserved === true ? encodeReserved : encode;
  if (p.contentType !== undefined) return [`${name}=${encode(JSON.stringify(value))}`];
  const style = p.style ?? 'form';
  const explode = p.explode ?? style === 'form';
  if (Array.isArray(value)) {
    const items = value.map((v) => enc(scalar(v)));
    if (style === 'spaceDelimited') return [`${name}=${items.join('%20')}`];
    if (style === 'pipeDelimited') return [`${name}=${items.join('|')}`];
    return explode ? items.map((v) => `${name}=${v}`) : [`${name}=${items.join(',')}`];
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (style === 'deepObject') return entries.map(([k, v]) => `${name}%5B${encode(k)}%5D=${enc(scalar(v))}`);
    if (explode) return entries.map(([k, v]) => `${encode(k)}=${enc(scalar(v))}`);
    const sep = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${name}=${entries.map(([k, v]) => `${encode(k)}${sep}${enc(scalar(v))}`).join(sep)}`];
  }
  return [`${name}=${enc(scalar(value))}`];
}

/** A header parameter's value (`simple` style). */
export function headerValue(p: OpenApiParameter, value: unknown): string {
  if (p.contentType !== undefined) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (isObject(value)) return Object.entries(value).map(([k, v]) => (p.explode === true ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`)).join(',');
  return scalar(value);
}

/** A cookie parameter's `name=value` pairs (`form` style), values encoded. */
export function cookiePairs(p: OpenApiParameter, value: unknown): string[] {
  const explode = p.explode ?? true;
  if (p.contentType !== undefined) return [`${p.name}=${encode(JSON.stringify(value))}`];
  if (Array.isArray(value)) return explode ? value.map((v) => `${p.name}=${encode(scalar(v))}`) : [`${p.name}=${value.map((v) => encode(scalar(v))).join(',')}`];
  if (isObject(value)) return explode ? Object.entries(value).map(([k, v]) => `${k}=${encode(scalar(v))}`) : [`${p.name}=${Object.entries(value).map(([k, v]) => `${encode(k)},${encode(scalar(v))}`).join(',')}`];
  return [`${p.name}=${encode(scalar(value))}`];
}

/** application/x-www-form-urlencoded: scalars as text, arrays repeated, objects as JSON. */
export function formBody(fields: Record<string, unknown>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) out.push(`${encode(k)}=${encode(scalar(item))}`);
  }
  return out.join('&');
}
