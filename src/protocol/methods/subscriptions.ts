import type { BusEvent } from '../../stores/bus.js';
import { invalidParams } from '../errors.js';
import type { McpProtocolHandler } from '../handler.js';
import { modernOnly, optionalObject, type MethodEntry } from './shared.js';

export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** The part of the client's filter this server can honour, given what it declared. */
function honoured(handler: McpProtocolHandler, requested: Record<string, unknown>): Filter {
  const caps = handler.deps.getMetadata().capabilities;
  const filter: Filter = {};
  if (requested['toolsListChanged'] === true && caps.tools?.listChanged === true) filter.toolsListChanged = true;
  if (requested['promptsListChanged'] === true && caps.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (requested['resourcesListChanged'] === true && caps.resources?.listChanged === true) filter.resourcesListChanged = true;
  const uris = requested['resourceSubscriptions'];
  if (Array.isArray(uris) && caps.resources?.subscribe === true) {
    filter.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string');
  }
  return filter;
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
export const listen: MethodEntry = {
  available: (handler, era) => {
    if (!modernOnly(handler, era)) return false;
    const caps = handler.deps.getMetadata().capabilities;
    return caps.tools?.listChanged === true || caps.prompts?.listChanged === true || caps.resources !== undefined;
  },
  async handle(params, context, handler) {
    const requested = optionalObject(params, 'notifications');
    if (requested === undefined) throw invalidParams('Invalid params: subscriptions/listen needs a "notifications" filter object');
    const filter = honoured(handler, requested);
    const meta = { [META_SUBSCRIPTION_ID]: context.requestId };
    await context.notify('notifications/subscriptions/acknowledged', { notifications: filter, _meta: meta });
    const bus = handler.deps.bus;
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) return resolve();
      const unsubscribe = bus?.subscribe((event) => {
        if (!wants(filter, event)) return;
        const method = event.type === 'resource_updated' ? 'notifications/resources/updated' : `notifications/${event.list}/list_changed`;
        const body = event.type === 'resource_updated' ? { uri: event.uri, _meta: meta } : { _meta: meta };
        context.notify(method, body).catch(() => undefined);
      });
      context.signal.addEventListener('abort', () => {
        unsubscribe?.();
        resolve();
      }, { once: true });
    });
    return { _meta: meta };
  },
};
