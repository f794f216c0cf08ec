import { checkFunction, checkResourceUri, checkTemplateUri, kindOf, RegistrationError } from './checks.js';
import { UriTemplate } from './uri-template.js';
import { McpResourceNotFoundError, McpUriTooLongError } from '../errors/classes.js';
import { KeyedRegistry } from './registry.js';
import type { McpReadResult, McpResource, McpResourceTemplate } from './types.js';

function checkResource(resource: McpResource<never>): void {
  if (typeof resource !== 'object' || resource === null) throw new RegistrationError(`A resource must be an object with a uri and a read function (got ${kindOf(resource)})`);
  checkResourceUri(resource.uri);
  checkFunction(resource, 'read', `Resource "${resource.uri}"`);
}

function checkTemplate(template: McpResourceTemplate<never>): void {
  if (typeof template !== 'object' || template === null) {
    throw new RegistrationError(`A resource template must be an object with a uriTemplate and a read function (got ${kindOf(template)})`);
  }
  checkTemplateUri(template.uriTemplate);
  checkFunction(template, 'read', `Resource template "${template.uriTemplate}"`);
}

interface TemplateEntry<TContext> {
  template: McpResourceTemplate<TContext>;
  matcher: UriTemplate;
}

/** Resource templates by URI template; `match` finds the first (in registration order) that fits a URI. */
export class McpResourceTemplateRegistry<TContext = unknown> extends KeyedRegistry<McpResourceTemplate<TContext>> {
  readonly #matchers = new Map<string, UriTemplate>();

  constructor() {
    super('Resource template');
  }

  register(template: McpResourceTemplate<TContext>): void {
    checkTemplate(template);
    const matcher = new UriTemplate(template.uriTemplate);
    this.add(template.uriTemplate, template);
    this.#matchers.set(template.uriTemplate, matcher);
  }

  update(template: McpResourceTemplate<TContext>): void {
    checkTemplate(template);
    const matcher = new UriTemplate(template.uriTemplate);
    this.replace(template.uriTemplate, template);
    this.#matchers.set(template.uriTemplate, matcher);
  }

  override unregister(uriTemplate: string): boolean {
    this.#matchers.delete(uriTemplate);
    return super.unregister(uriTemplate);
  }

  match(uri: string): { entry: TemplateEntry<TContext>; variables: Record<string, string | string[]> } | undefined {
    for (const template of this.list()) {
      const matcher = this.#matchers.get(template.uriTemplate);
      const variables = matcher?.match(uri);
      if (matcher && variables) return { entry: { template, matcher }, variables };
    }
    return undefined;
  }
}

/** Default `maxUriLength`: the longest URI matched against resource templates, in UTF-16 code units. */
export const DEFAULT_MAX_URI_LENGTH = 8192;

/** Static resources by URI, with the templates that serve dynamic URIs beside them. */
export class McpResourceRegistry<TContext = unknown> extends KeyedRegistry<McpResource<TContext>> {
  readonly templates = new McpResourceTemplateRegistry<TContext>();
  #maxUriLength = DEFAULT_MAX_URI_LENGTH;

  /** The longest URI `read` matches against templates; a longer one is refused (McpUriTooLongError). */
  get maxUriLength(): number {
    return this.#maxUriLength;
  }

  set maxUriLength(value: number) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`maxUriLength must be a positive integer (got ${String(value)})`);
    this.#maxUriLength = value;
  }

  constructor() {
    super('Resource');
  }

  register(resource: McpResource<TContext>): void {
    checkResource(resource);
    this.add(resource.uri, resource);
  }

  update(resource: McpResource<TContext>): void {
    checkResource(resource);
    this.replace(resource.uri, resource);
  }

  /**
   * A static resource wins over a template that also matches the URI. A URI
   * longer than `maxUriLength` is refused unless a static resource has it.
   */
  async read(uri: string, context?: TContext): Promise<McpReadResult> {
    const resource = this.active(uri);
    if (resource) return resource.read(context as TContext);
    if (uri.length > this.#maxUriLength) throw new McpUriTooLongError(uri, this.#maxUriLength);
    const found = this.templates.match(uri);
    if (found) return found.entry.template.read(uri, found.variables, context as TContext);
    throw new McpResourceNotFoundError(uri);
  }
}
