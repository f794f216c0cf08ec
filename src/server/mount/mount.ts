import { listedNow, type McpProviderListKind } from '../../registries/catalog.js';
import { RegistrationError } from '../../registries/checks.js';
import type { McpProvider } from '../../registries/provider.js';
import type { RequestContext } from '../../protocol/request/context.js';
import { keysOf, refuseUnknownKeys } from '../../util/known-keys.js';
import { NAMESPACE, namespaced, namingOf, SEPARATOR, type McpNaming } from './namespace.js';

export interface McpMountOptions {
  /** Prefix of every tool and prompt name (`<namespace>_<name>`) and of every resource URI (`<namespace>+<uri>`, `_` as `-`). */
  namespace: string;
  /** Between namespace and name (default `_`); characters valid in tool names, at most 8. */
  separator?: string;
}

export const MOUNT_KEYS = keysOf<McpMountOptions>({ namespace: true, separator: true });

const KINDS: readonly McpProviderListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];
const NOUN: Record<McpProviderListKind, string> = { tools: 'tool', resources: 'resource', resourceTemplates: 'resource template', prompts: 'prompt' };
const KEY: Record<McpProviderListKind, (item: Record<string, unknown>) => string> = {
  tools: (i) => i['name'] as string,
  resources: (i) => i['uri'] as string,
  resourceTemplates: (i) => i['uriTemplate'] as string,
  prompts: (i) => i['name'] as string,
};

/** What `mount` needs of the parent: what it serves now (synchronously known), and its mounts' namings. */
export interface MountTarget {
  served(kind: McpProviderListKind): ReadonlyMap<string, string>;
  readonly namings: Map<string, McpNaming>;
}

/** Checks the options and the names, then answers the namespaced provider to add. Throws RegistrationError, never at call time. */
export function mountProvider(target: MountTarget, child: McpProvider<RequestContext>, options: McpMountOptions): { provider: McpProvider<RequestContext>; naming: McpNaming } {
  if (typeof options !== 'object' || options === null) throw new RegistrationError('server.mount(child, options) needs options: { namespace: "docs" }');
  refuseUnknownKeys(options, MOUNT_KEYS, 'server.mount() options', (message) => new RegistrationError(message));
  const { namespace, separator = '_' } = options;
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    throw new RegistrationError(`server.mount(): invalid namespace ${JSON.stringify(namespace)}: it must start with a letter and hold only letters, digits, "_", "-" and "." (it prefixes tool names and, as a URI scheme, resource URIs)`);
  }
  if (typeof separator !== 'string' || !SEPARATOR.test(separator)) {
    throw new RegistrationError(`server.mount(): invalid separator ${JSON.stringify(separator)}: 1-8 characters of A-Z a-z 0-9 _ - . (valid in tool names)`);
  }
  const naming = namingOf(namespace, separator);
  for (const [other, taken] of target.namings) {
    if (other === namespace) throw new RegistrationError(`server.mount(): namespace "${namespace}" is already mounted; choose another namespace`);
    if (taken.uriPrefix === naming.uriPrefix) {
      throw new RegistrationError(`server.mount(): namespaces "${other}" and "${namespace}" give the same resource URI prefix "${naming.uriPrefix}" ("_" becomes "-" in a URI scheme); choose another namespace`);
    }
  }
  const provider = namespaced(child, naming);
  // Both sides known now: a name both would serve is refused here, not shadowed later.
  for (const kind of KINDS) {
    const list = listedNow(provider, kind);
    if (list === undefined) continue;
    const served = target.served(kind);
    for (const item of list as unknown as readonly Record<string, unknown>[]) {
      const key = KEY[kind](item);
      const owner = served.get(key);
      if (owner !== undefined) {
        throw new RegistrationError(`server.mount(): ${NOUN[kind]} "${key}" of mount "${namespace}" is already served by ${owner}; rename one of them or choose another namespace`);
      }
      if (kind === 'tools' && key.length > 128) throw new RegistrationError(`server.mount(): tool name "${key.slice(0, 40)}…" of mount "${namespace}" is ${key.length} characters, more than 128; choose a shorter namespace`);
    }
  }
  return { provider, naming };
}
