/**
 * The variables of an RFC 6570 URI template, typed from the template string, as the matcher
 * (uri-template-read.ts) hands them to a reader: a simple `{name}` or `{+name}` always matches
 * (perhaps as ''), so it is a `string`; a variable after the first of a list, and every
 * variable of an operator with a prefix (`{#…}`, `{.…}`, `{/…}`, `{;…}`, `{?…}`, `{&…}`) may be
 * absent, so it is optional; an exploded `{list*}` is a `string[]`, and optional.
 * A template typed only as `string` gives `Record<string, string | string[]>`.
 */
type Split<S extends string> = S extends `${infer Head},${infer Tail}` ? [Head, ...Split<Tail>] : [S];
type NameOf<V extends string> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
type ValueOf<V extends string> = V extends `${string}*` ? string[] : string;
type Optional<L extends string[]> = { [V in L[number] as NameOf<V>]?: ValueOf<V> };
type FirstRequired<L extends string[]> = L extends [infer Head extends string, ...infer Tail extends string[]]
  ? Head extends `${string}*`
    ? Optional<L>
    : { [N in NameOf<Head>]: string } & Optional<Tail>
  : object;
type ExpressionVariables<E extends string> = E extends `${'#' | '.' | '/' | ';' | '?' | '&'}${infer Body}`
  ? Optional<Split<Body>>
  : E extends `+${infer Body}`
    ? FirstRequired<Split<Body>>
    : FirstRequired<Split<E>>;
type Collect<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? ExpressionVariables<E> & Collect<Rest> : object;

// `infer V` then a mapped type makes editors and errors show `{ name: string }`, not the helpers.
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string | string[]>
  : Collect<T> extends infer V
    ? { [K in keyof V]: V[K] }
    : never;
