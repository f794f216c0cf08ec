/**
 * Where a server's tools, resources, resource templates and prompts come from:
 * its own registries, a mounted server, a proxied upstream, an OpenAPI
 * document. A server serves its providers in the order they were added (its
 * own registries first); within one provider, in the order it lists them.
 *
 * Every method may answer synchronously or with a promise (`T | Promise<T>`):
 * local providers answer synchronously and pay no promise per request; a
 * proxied upstream may need a network round trip the first time.
 *
 * Lists are whole: the server merges them and pages the merged list with its
 * own cursors. A provider whose source is paged (an upstream's `tools/list`)
 * gathers the pages when it refreshes and answers from its cache until it
 * emits `list_changed` (its cache is its to bound).
 *
 * Items carry their behaviour: a tool's `execute` is the call (it receives the
 * raw arguments: a provider validates them itself, or lets its upstream do so),
 * a resource's `read`, a template's `read` and `complete`, a prompt's `get` and
 * `complete`. They all receive the request context (`TContext`: the server's
 * `RequestContext` with signal, progress, logging, principal and the client
 * requests — sampling, elicitation, roots).
 */
import type { MaybePromise } from '../stores/contracts.js';
import type { UpdateAudience } from '../stores/bus.js';
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from './types.js';

export type { MaybePromise, UpdateAudience };

/** The lists a provider offers (resource templates change with `resources`, as on the wire). */
export type McpProviderList = 'tools' | 'resources' | 'prompts';

/**
 * What a provider tells the server: one of its lists changed, or a resource's content did (URI as
 * the provider serves it). `to` scopes an update whose content is one owner's (a proxy's
 * per-principal upstream link): only that legacy session, or that principal's listen streams,
 * hear it. Absent: everyone subscribed to the URI.
 */
export type McpProviderChange = { type: 'list_changed'; list: McpProviderList } | { type: 'resource_updated'; uri: string; to?: UpdateAudience };

/** What a resource URI resolved to: a static resource, or a template with the variables it matched. */
export type McpResourceMatch<TContext = unknown> =
  | { resource: McpResource<TContext>; template?: undefined; variables?: undefined }
  | { resource?: undefined; template: McpResourceTemplate<TContext>; variables: Record<string, string | string[]> };

/**
 * A source of tools, resources, templates and prompts. Every member is
 * optional: a provider without `listTools` offers no tools. `context` is the
 * request's context when a request asks, `undefined` when the server asks for
 * itself (capabilities, conflict checks at mount time).
 *
 * - `list*` answers the provider's whole current list; the same array (and
 *   item objects) until the list changes lets the server cache its views.
 * - `find*` looks one item up by the name or URI the provider serves it under;
 *   absent, the server searches the list (and matches the listed templates'
 *   `uriTemplate`s for a URI). `undefined` means "not mine": the server asks the
 *   next provider, and answers the revision's not-found error when none has it.
 * - `subscribe`/`unsubscribe` are told when a client (un)subscribes to one of
 *   this provider's resources, so an upstream subscription can follow.
 * - `onChange` delivers `list_changed` and `resource_updated`; the server
 *   forwards them to sessions and `subscriptions/listen` streams. Returns the
 *   function that stops delivery.
 * - `sessionClosed` is told when a session on the serving server closes, so
 *   what the provider holds for that session (an upstream session) ends too.
 */
export interface McpProvider<TContext = unknown> {
  /** Names the provider in warnings and errors (`mount "docs"`, `proxy "github"`). */
  readonly label?: string;
  listTools?(context: TContext | undefined): MaybePromise<readonly McpTool<never, TContext>[]>;
  findTool?(name: string, context: TContext | undefined): MaybePromise<McpTool<never, TContext> | undefined>;
  listResources?(context: TContext | undefined): MaybePromise<readonly McpResource<TContext>[]>;
  listResourceTemplates?(context: TContext | undefined): MaybePromise<readonly McpResourceTemplate<TContext>[]>;
  findResource?(uri: string, context: TContext | undefined): MaybePromise<McpResourceMatch<TContext> | undefined>;
  listPrompts?(context: TContext | undefined): MaybePromise<readonly McpPrompt<TContext>[]>;
  findPrompt?(name: string, context: TContext | undefined): MaybePromise<McpPrompt<TContext> | undefined>;
  subscribe?(uri: string, context: TContext): MaybePromise<void>;
  /** `context` is undefined when the session that subscribed ended. */
  unsubscribe?(uri: string, context: TContext | undefined): MaybePromise<void>;
  onChange?(listener: (change: McpProviderChange) => void): () => void;
  /** Told when a session on the serving server closes (ended, expired, server stopped): what the provider keeps for it (a proxy's upstream session) can go. */
  sessionClosed?(sessionId: string): MaybePromise<void>;
}
