import { ErrorCode, JsonRpcProtocolError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/message.js';
import { McpResourceNotFoundError } from '../../errors/classes.js';
import { reaches, type BusEvent } from '../../stores/bus.js';
import type { TaskRecord } from '../../stores/tasks.js';
import { invalidParams } from '../wire/errors.js';
import type { MethodContext } from '../scopes/method-context.js';
import type { ServerScope } from '../scopes/server-scope.js';
import { SubscriptionSet } from '../scopes/subscription-set.js';
import { revision, type ProtocolVersion } from '../wire/versions.js';
import { LEGACY_ONLY, MODERN_ONLY, RESOURCE_TARGET } from '../wire/method-facts.js';
import { optionalObject, requireString, resourceScopes, uriScopes, type RecordUpdate, type RequestMethod } from './shared.js';
import { requireExtensions } from '../extensions.js';
import { principalOf } from '../request/principal.js';
import { detailedTask, TASKS_EXTENSION } from '../scopes/task-runtime.js';
import { isThenable } from '../../util/thenable.js';

export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks extension: notifications/tasks for these tasks. */
  taskIds?: string[];
}

/** Throws the revision's resource-not-found error unless `uri` names a resource (static or templated). */
function requireResource(server: ServerScope, uri: string, version: ProtocolVersion, context: MethodContext): void | Promise<void> {
  const registry = server.resources;
  if (registry.isEnabled(uri)) return;
  const catalog = server.catalog;
  const maxLength = registry.maxUriLength;
  if (uri.length > maxLength) {
    // Not echoed back: the message says how long it was.
    throw new JsonRpcProtocolError(revision(version).resourceNotFoundCode, `Resource URI too long: ${uri.length} characters, more than the limit of ${maxLength} (maxUriLength)`, { maxUriLength: maxLength });
  }
  if (catalog !== undefined) {
    const known = catalog.subscribe(uri, context);
    const verdict = (ok: boolean): void => {
      if (!ok) throw new McpResourceNotFoundError(uri);
    };
    return isThenable(known) ? Promise.resolve(known).then(verdict) : verdict(known);
  }
  if (registry.templates.match(uri) === undefined) throw new McpResourceNotFoundError(uri);
}

function noSessionState(method: string): JsonRpcProtocolError {
  return new JsonRpcProtocolError(
    ErrorCode.MethodNotFound,
    `Method not found: ${method} is not available on this stateless endpoint, which keeps nothing between requests; use an endpoint with sessions (stateless: false), or 2026-07-28 ${method === 'logging/setLevel' ? 'per-request log levels' : 'subscriptions/listen'}`,
  );
}

/** On the shared stateless connection a session-scoped setting would be kept for every client: refuse it. */
export function refuseWithoutSession(ctx: MethodContext): void {
  if (ctx.session === undefined) throw noSessionState(ctx.method);
}

function subscription(action: 'subscribe' | 'unsubscribe'): RequestMethod {
  return {
    method: `resources/${action}`,
    kind: 'request',
    eras: LEGACY_ONLY,
    target: RESOURCE_TARGET,
    // Unsubscribing needs nothing: it only stops what a subscription started.
    ...(action === 'subscribe' ? { scopes: uriScopes } : {}),
    gate: (server) => server.getMetadata().capabilities.resources?.subscribe === true,
    changesRecord: true,
    handle(params, ctx): RecordUpdate | Promise<RecordUpdate> {
      refuseWithoutSession(ctx);
      const uri = requireString(params, 'uri');
      if (uri.length === 0) throw invalidParams('Invalid params: "uri" must not be empty');
      // The session applies it within its limits (maxSubscriptionsPerSession, maxSubscriptionBytesPerSession).
      const update: RecordUpdate = { result: {}, change: { type: action, uri } };
      if (action === 'unsubscribe') {
        ctx.server.catalog?.unsubscribe(uri, ctx);
        return update;
      }
      const checked = requireResource(ctx.server, uri, ctx.protocolVersion, ctx);
      return isThenable(checked) ? Promise.resolve(checked).then(() => update) : update;
    },
  };
}

/** `resources/subscribe` (legacy sessions): a known resource, within the session's limits. */
export const subscribe = subscription('subscribe');
export const unsubscribe = subscription('unsubscribe');

/** The part of the client's filter this server can honour, given what it declared. */
function honoured(server: ServerScope, requested: Record<string, unknown>): Filter {
  const caps = server.getMetadata().capabilities;
  const filter: Filter = {};
  if (requested['toolsListChanged'] === true && caps.tools?.listChanged === true) filter.toolsListChanged = true;
  if (requested['promptsListChanged'] === true && caps.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (requested['resourcesListChanged'] === true && caps.resources?.listChanged === true) filter.resourcesListChanged = true;
  const uris = requested['resourceSubscriptions'];
  if (Array.isArray(uris) && caps.resources?.subscribe === true) {
    // Held for the stream's lifetime: bounded like a session's subscriptions.
    const held = new SubscriptionSet();
    const limits = server.subscriptionLimits;
    for (const uri of uris) if (typeof uri === 'string') held.add(uri, limits);
    filter.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string' && held.has(u));
  }
  return filter;
}

/**
 * The tasks of `taskIds` this stream may follow: the caller's own (another principal's task
 * looks unknown, as on tasks/get), within the same limits as resource subscriptions.
 * A client that did not declare the tasks extension gets -32021 (SEP-2663).
 */
async function honouredTasks(context: MethodContext, taskIds: unknown): Promise<string[]> {
  if (!Array.isArray(taskIds) || taskIds.some((id) => typeof id !== 'string')) throw invalidParams('Invalid params: "notifications.taskIds" must be an array of task id strings');
  requireExtensions(context.client.capabilities, [TASKS_EXTENSION]);
  const held = new SubscriptionSet();
  const limits = context.server.subscriptionLimits;
  const principal = principalOf(context.authInfo);
  const honoured: string[] = [];
  for (const id of taskIds as string[]) {
    if (held.has(id)) continue;
    const record = await context.server.tasks.store.get(id);
    if (record === undefined || record.principal !== principal) continue;
    held.add(id, limits);
    if (held.has(id)) honoured.push(id);
  }
  return honoured;
}

/** Per server, per principal: the URIs its open listen streams hold, with how many streams hold each (providers are told once). */
const held = new WeakMap<ServerScope, Map<string, Map<string, number>>>();

/**
 * Tells the providers serving `uris` (mounts, proxies) that this principal listens to them, once
 * per principal however many streams it opens; the URIs no provider knows are dropped from the
 * stream's filter. Bounded per principal by `maxSubscriptions`. Returns the release for the end
 * of the stream, which unsubscribes what no other stream of the principal still holds.
 */
async function holdForPrincipal(context: MethodContext, uris: string[]): Promise<{ uris: string[]; release: () => void }> {
  const catalog = context.server.catalog;
  if (catalog === undefined || uris.length === 0) return { uris, release: () => undefined };
  let principals = held.get(context.server);
  if (principals === undefined) held.set(context.server, (principals = new Map<string, Map<string, number>>()));
  // Issuer-qualified, as a gateway keys its upstream links: the same `sub` from two issuers is two people.
  const key = principalOf(context.authInfo) ?? '';
  let counts = principals.get(key);
  if (counts === undefined) principals.set(key, (counts = new Map<string, number>()));
  const mine: string[] = [];
  const release = (): void => {
    for (const uri of mine.splice(0)) {
      const n = (counts.get(uri) ?? 1) - 1;
      if (n > 0) counts.set(uri, n);
      else {
        counts.delete(uri);
        catalog.unsubscribe(uri, context);
      }
    }
    if (counts.size === 0 && principals.get(key) === counts) principals.delete(key);
  };
  const fresh: string[] = [];
  try {
    const max = context.server.subscriptionLimits.maxSubscriptions;
    for (const uri of new Set(uris)) {
      const n = counts.get(uri);
      if (n === undefined && counts.size >= max) throw new JsonRpcProtocolError(ErrorCode.InternalError, `Too many subscriptions: this principal's subscriptions/listen streams already hold ${counts.size} resource URIs (the limit is ${max}); end a stream first`, { limit: 'maxSubscriptions' });
      counts.set(uri, (n ?? 0) + 1);
      mine.push(uri);
      if (n === undefined) fresh.push(uri);
    }
  } catch (error) {
    release();
    throw error;
  }
  // Told at once, not one after another: a proxy then asks its upstream once for all of them.
  const verdicts = await Promise.all(fresh.map(async (uri) => {
    try {
      return await catalog.subscribe(uri, context);
    } catch (error) {
      context.server.logger?.warn?.(`mcpkit: subscribing to ${uri} for subscriptions/listen failed: ${(error as Error).message}`);
      return false;
    }
  }));
  const unknown = new Set(fresh.filter((_, i) => verdicts[i] !== true));
  for (let i = mine.length - 1; i >= 0; i--) {
    const uri = mine[i]!;
    if (!unknown.has(uri)) continue;
    mine.splice(i, 1);
    const n = (counts.get(uri) ?? 1) - 1;
    if (n > 0) counts.set(uri, n);
    else counts.delete(uri);
  }
  const kept = new Set(mine);
  return { uris: uris.filter((uri) => kept.has(uri)), release };
}

function wants(filter: Filter, event: BusEvent): boolean {
  if (event.type === 'resource_updated') return filter.resourceSubscriptions?.includes(event.uri) === true;
  if (event.list === 'tools') return filter.toolsListChanged === true;
  if (event.list === 'prompts') return filter.promptsListChanged === true;
  return filter.resourcesListChanged === true;
}

/**
 * `subscriptions/listen` (2026-07-28): acknowledge first, then forward the
 * opted-in change notifications from the bus, each tagged with the
 * subscription id, until the client closes the stream or the server stops.
 */
export const listen: RequestMethod = {
  method: 'subscriptions/listen',
  kind: 'request',
  eras: MODERN_ONLY,
  streams: true,
  gate: (server) => {
    const caps = server.getMetadata().capabilities;
    return caps.tools?.listChanged === true || caps.prompts?.listChanged === true || caps.resources !== undefined;
  },
  // Update notifications of a resource are as protected as reading it.
  scopes: (server, params) => {
    const filter = params['notifications'];
    const uris = isPlainObject(filter) ? filter['resourceSubscriptions'] : undefined;
    if (!Array.isArray(uris)) return undefined;
    const needed = new Set<string>();
    for (const uri of uris) if (typeof uri === 'string') for (const scope of resourceScopes(server, uri) ?? []) needed.add(scope);
    return needed.size === 0 ? undefined : [...needed];
  },
  async handle(params, context) {
    const requested = optionalObject(params, 'notifications');
    if (requested === undefined) throw invalidParams('Invalid params: subscriptions/listen needs a "notifications" filter object');
    const filter = honoured(context.server, requested);
    if (requested['taskIds'] !== undefined) filter.taskIds = await honouredTasks(context, requested['taskIds']);
    // Mounted and proxied resources are subscribed upstream for the stream's lifetime.
    const subscribed = await holdForPrincipal(context, filter.resourceSubscriptions ?? []);
    if (filter.resourceSubscriptions !== undefined) filter.resourceSubscriptions = subscribed.uris;
    const meta = { [META_SUBSCRIPTION_ID]: context.requestId };
    // Each status change carries the whole task, as tasks/get would show it then.
    // A failed notify means the listen stream closed; its abort listener stops the watch.
    const pushTask = (record: TaskRecord): void => void context.notify('notifications/tasks', { ...detailedTask(record), _meta: meta }).catch(() => undefined);
    // Followed before the acknowledgement (on every instance, with a task channel); changes meanwhile wait for it.
    let early: TaskRecord[] | undefined = [];
    const unwatch: (() => void)[] = [];
    try {
      for (const id of filter.taskIds ?? []) unwatch.push(await context.server.tasks.watch(id, (record) => (early === undefined ? pushTask(record) : early.push(record))));
      await context.notify('notifications/subscriptions/acknowledged', { notifications: filter, _meta: meta });
      for (const record of early) pushTask(record);
      early = undefined;
      const bus = context.server.bus;
      const principal = principalOf(context.authInfo) ?? '';
      await new Promise<void>((resolve) => {
        if (context.signal.aborted) return resolve();
        const unsubscribe = bus?.subscribe((event) => {
          // An update scoped to another principal (its own upstream link's) is not this stream's.
          if (!wants(filter, event) || !reaches(event, undefined, principal)) return;
          const method = event.type === 'resource_updated' ? 'notifications/resources/updated' : `notifications/${event.list}/list_changed`;
          const body = event.type === 'resource_updated' ? { uri: event.uri, _meta: meta } : { _meta: meta };
          // A failed notify means the listen stream closed; its abort listener unsubscribes.
          context.notify(method, body).catch(() => undefined);
        });
        context.signal.addEventListener('abort', () => {
          unsubscribe?.();
          resolve();
        }, { once: true });
      });
    } finally {
      for (const stop of unwatch) stop();
      subscribed.release();
    }
    return { _meta: meta };
  },
};
