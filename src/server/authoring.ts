import type { RequestContext } from '../protocol/request/context.js';
import type { McpPromptRegistry } from '../registries/prompts.js';
import type { McpResourceRegistry } from '../registries/resources.js';
import type { McpToolRegistry } from '../registries/tools.js';
import type { Completer, McpReadResult } from '../registries/types.js';
import type { Icon, McpPromptArgument, McpPromptMessage, McpToolResult, Meta, ResourceDescription, ToolAnnotations } from '../wire-types/index.js';
import { kindOf, RegistrationError } from '../registries/checks.js';
import type { TemplateVariables } from '../registries/template-variables.js';
import { compileSchema, isStandardSchema, SchemaConversionError, type CompiledSchema, type InferOutput, type SchemaInput } from '../schema/index.js';
import { toCallToolResult } from './results.js';
import { isThenable } from '../util/thenable.js';
import { keysOf, refuseUnknownKeys } from '../util/known-keys.js';
import { checkUiUri, MCP_APP_MIME_TYPE, UI_EXTENSION_ID, uiResourceMeta, uiToolMeta, withUiMeta, type ToolApp, type UiResourceMeta } from '../apps/ui.js';
import { checkExtensionId, requireExtensions } from '../protocol/extensions.js';

export interface ToolConfig<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined> {
  title?: string;
  description?: string;
  /** Any Standard Schema (zod 4, valibot, arktype…) or a raw JSON Schema object. */
  input?: I;
  /** Declares structured output: a plain object returned by the handler becomes `structuredContent`. */
  output?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /** Aborts the handler's signal and answers an error result after this long. */
  timeoutMs?: number;
  /** 2026-07-28 tasks extension (docs/tasks.md): `optional` or `required` task support. */
  task?: 'optional' | 'required';
  /** `manual`: the task starts when the handler calls `await ctx.startTask()`; before that it may ask for input. */
  taskStart?: 'immediate' | 'manual';
  /** OAuth scopes a caller needs over HTTP with `auth` (docs/auth.md); without them: 403 and step-up. */
  scopes?: readonly string[];
  /** MCP Apps (docs/apps.md): the `ui://` view that renders this tool's results, written to `_meta.ui`. */
  app?: ToolApp;
  /**
   * Extensions the caller must have declared (docs/extensions.md). Without them the call fails
   * with -32021 and `data.requiredCapabilities.extensions`; leave this out and check
   * `ctx.client.capabilities` to fall back instead.
   */
  requires?: readonly string[];
}

/** The view's HTML, or a function that produces it on each read. */
export type UiHtml = string | (() => string | Promise<string>);

/** `server.uiResource()` settings: the resource's description and its `_meta.ui` (docs/apps.md). */
export interface UiResourceConfig extends UiResourceMeta {
  name?: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  _meta?: Meta;
  scopes?: readonly string[];
}

type Args<I> = I extends SchemaInput ? InferOutput<I> : Record<string, unknown>;
type Structured<O> = O extends SchemaInput ? InferOutput<O> : never;

export type ToolReturn<O> = string | McpToolResult | Structured<O>;
export type ToolHandler<I, O> = (args: Args<I>, ctx: RequestContext) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** What a resource reader may return: text, bytes, one contents object, several, or a full result. */
export type ResourceReturn = string | Uint8Array | McpReadResult | { contents: readonly Record<string, unknown>[] };

/** A resource's description fields (the wire's, written once), its name optional, and what the server enforces. */
export interface ResourceConfig extends Omit<ResourceDescription, 'uri' | 'name'> {
  name?: string;
  /** OAuth scopes a caller needs over HTTP with `auth` (docs/auth.md); without them: 403 and step-up. */
  scopes?: readonly string[];
}

export interface ResourceTemplateConfig<T extends string = string> extends Omit<ResourceConfig, 'size'> {
  /** Completers for template variables, by variable name. */
  complete?: { [K in keyof TemplateVariables<T> & string]?: Completer<RequestContext> };
}

/** A template reader: `variables` is typed from the template (`'city://{name}'` gives `{ name: string }`). */
export type TemplateReader<T extends string = string> = (
  uri: string,
  variables: TemplateVariables<T>,
  ctx: RequestContext,
) => ResourceReturn | Promise<ResourceReturn>;

type ArgumentName<A> = A extends { readonly name: infer N extends string } ? N : never;
type RequiredName<A> = A extends { readonly name: infer N extends string; readonly required: true } ? N : never;

/**
 * A prompt's arguments typed from its declaration: a `required: true` argument is a `string`,
 * any other is optional (`string | undefined`). Undeclared names give `Record<string, string>`.
 */
export type PromptArgs<A extends readonly McpPromptArgument[]> = string extends ArgumentName<A[number]>
  ? Record<string, string>
  : { [N in RequiredName<A[number]>]: string } & { [N in Exclude<ArgumentName<A[number]>, RequiredName<A[number]>>]?: string | undefined };

export type PromptHandler<A extends readonly McpPromptArgument[] = readonly McpPromptArgument[]> = (
  args: PromptArgs<A>,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

export interface PromptConfig<A extends readonly McpPromptArgument[] = readonly McpPromptArgument[]> {
  title?: string;
  description?: string;
  arguments?: A;
  icons?: Icon[];
  _meta?: Meta;
  /** Completers for arguments, by argument name. */
  complete?: { [N in ArgumentName<A[number]>]?: Completer<RequestContext> };
  /** OAuth scopes a caller needs over HTTP with `auth` (docs/auth.md); without them: 403 and step-up. */
  scopes?: readonly string[];
}

export type PromptReturn = string | readonly McpPromptMessage[] | { messages: readonly McpPromptMessage[]; description?: string };

/** Returned by `server.tool()`, `resource()`, `resourceTemplate()` and `prompt()`. */
export interface RegisteredHandle<C, H> {
  /** Changes the definition in place (keeps its position); clients get `list_changed`. */
  update(changes: Partial<C> & { handler?: H }): void;
  enable(): void;
  disable(): void;
  remove(): void;
  readonly enabled: boolean;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Turns what a reader returned into what the registry hands the protocol. */
function toReadResult(uri: string, mimeType: string | undefined, value: ResourceReturn): McpReadResult {
  const withMime = <T extends Record<string, unknown>>(entry: T): T => (mimeType === undefined ? entry : { mimeType, ...entry });
  if (typeof value === 'string') return withMime({ uri, text: value });
  if (value instanceof Uint8Array) return withMime({ uri, blob: bytesToBase64(value) });
  return value as McpReadResult;
}

function toMessages(value: PromptReturn): readonly McpPromptMessage[] {
  if (typeof value === 'string') return [{ role: 'user', content: { type: 'text', text: value } }];
  if (Array.isArray(value)) return value as readonly McpPromptMessage[];
  // Anything else (undefined, a number from plain JavaScript, an InputRequiredResult) goes on as it is:
  // prompts/get checks it and tells the author what came back.
  if (typeof value !== 'object' || value === null) return value;
  return ((value as { messages?: unknown }).messages ?? value) as readonly McpPromptMessage[];
}

/** Scopes are checked at registration: a typo here would lock a tool away or open it. */
function checkedScopes(scopes: readonly string[], owner: string): readonly string[] {
  if (!Array.isArray(scopes)) throw new TypeError(`${owner}: scopes must be an array of scope strings`);
  for (const scope of scopes) {
    // RFC 6749 §3.3 scope-token: printable ASCII except space, quote and backslash.
    if (typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)) {
      throw new TypeError(`${owner}: ${JSON.stringify(scope)} is not a valid OAuth scope (printable ASCII, no spaces, quotes or backslashes)`);
    }
  }
  return Object.freeze([...(scopes as readonly string[])]);
}

function handle<C, H>(
  registry: { setEnabled(key: string, enabled: boolean): boolean; unregister(key: string): boolean; isEnabled(key: string): boolean },
  key: string,
  update: (changes: Partial<C> & { handler?: H }) => void,
): RegisteredHandle<C, H> {
  return {
    update,
    enable: () => void registry.setEnabled(key, true),
    disable: () => void registry.setEnabled(key, false),
    remove: () => void registry.unregister(key),
    get enabled() {
      return registry.isEnabled(key);
    },
  };
}

/** The official SDK's config keys, which mcpkit spells differently: silently ignoring them would skip validation. */
const SDK_KEYS: Record<string, string> = { inputSchema: 'input', outputSchema: 'output', paramsSchema: 'input', argsSchema: 'arguments' };

/**
 * Plain-JavaScript mistakes in a registration call, caught before anything is
 * registered: the official SDK's argument orders, a missing handler, SDK key names.
 */
function checkCall(call: string, signature: string, key: string, config: unknown, handler: unknown, known: readonly string[]): void {
  const head = `${call}(${JSON.stringify(key)}, …)`;
  if (typeof config === 'string') {
    throw new RegistrationError(
      `${call}(${JSON.stringify(key)}, ${JSON.stringify(config.slice(0, 40))}, …) looks like the official SDK's signature; mcpkit's is ${signature}`,
    );
  }
  if (typeof config === 'function') throw new RegistrationError(`${head}: the second argument is the config object and the handler comes third: ${signature}`);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new RegistrationError(`${head}: the config must be an object (got ${kindOf(config)}): ${signature}`);
  if (Object.entries(config).some(([k, value]) => k !== 'input' && k !== 'output' && isStandardSchema(value))) {
    throw new RegistrationError(`${head}: the second argument is the config, not the argument shape; write ${call}(${JSON.stringify(key)}, { input: { … } }, handler)`);
  }
  for (const [wrong, right] of Object.entries(SDK_KEYS)) {
    if (Object.hasOwn(config, wrong)) throw new RegistrationError(`${head}: the config has "${wrong}", which mcpkit calls "${right}": ${signature}`);
  }
  refuseUnknownKeys(config, known, `${call}(${JSON.stringify(key)}) config`, registrationError);
  if (typeof handler !== 'function') throw new RegistrationError(`${head} needs a handler function as its third argument (got ${kindOf(handler)}): ${signature}`);
}

/** A tool's `requires`: extension ids, checked once. */
function requiredExtensions(ids: readonly string[], owner: string): readonly string[] {
  if (!Array.isArray(ids)) throw new RegistrationError(`${owner}: requires must be an array of extension identifiers (got ${kindOf(ids)})`);
  for (const id of ids) checkExtensionId(id, `${owner}: requires`);
  return Object.freeze([...(ids as readonly string[])]);
}

/** compileSchema, with the tool and the side named in the error. */
function schemaOf(toolName: string, which: 'input' | 'output', schema: SchemaInput): CompiledSchema {
  try {
    return compileSchema(schema, which === 'output' ? { io: 'output' } : undefined);
  } catch (error) {
    if (!(error instanceof SchemaConversionError)) throw error;
    throw new SchemaConversionError(`Tool "${toolName}": ${which} schema: ${error.message}`, { cause: error });
  }
}

const TOOL_KEYS = keysOf<ToolConfig<SchemaInput, SchemaInput>>({
  title: true, description: true, input: true, output: true, annotations: true, icons: true, _meta: true,
  timeoutMs: true, task: true, taskStart: true, scopes: true, app: true, requires: true,
});
const RESOURCE_KEYS = keysOf<ResourceConfig>({ name: true, title: true, description: true, mimeType: true, size: true, icons: true, annotations: true, _meta: true, scopes: true });
const TEMPLATE_KEYS = keysOf<ResourceTemplateConfig>({ name: true, title: true, description: true, mimeType: true, icons: true, annotations: true, _meta: true, scopes: true, complete: true });
const PROMPT_KEYS = keysOf<PromptConfig>({ title: true, description: true, arguments: true, icons: true, _meta: true, complete: true, scopes: true });
const UI_RESOURCE_KEYS = keysOf<UiResourceConfig>({
  name: true, title: true, description: true, icons: true, _meta: true, scopes: true, csp: true, permissions: true, domain: true, prefersBorder: true,
});
const registrationError = (message: string): Error => new RegistrationError(message);

const TOOL_SIGNATURE = 'server.tool(name, { description, input }, (args, ctx) => result)';
const RESOURCE_SIGNATURE = 'server.resource(uri, { name, mimeType }, (ctx) => contents)';
const TEMPLATE_SIGNATURE = 'server.resourceTemplate(uriTemplate, { name }, (uri, variables, ctx) => contents)';
const PROMPT_SIGNATURE = 'server.prompt(name, { description, arguments }, (args, ctx) => messages)';

/** The friendly registration API (`server.tool()`, …) over the registries' `register()`. */
export abstract class Authoring {
  abstract readonly tools: McpToolRegistry<RequestContext>;
  abstract readonly resources: McpResourceRegistry<RequestContext>;
  abstract readonly prompts: McpPromptRegistry<RequestContext>;
  abstract extension(id: string, settings?: Record<string, unknown>): this;
  abstract hasExtension(id: string): boolean;

  /** Registers a tool. Arguments are validated against `input` before the handler runs. */
  tool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): RegisteredHandle<ToolConfig<I, O>, ToolHandler<I, O>> {
    checkCall('server.tool', TOOL_SIGNATURE, name, config, handler, TOOL_KEYS);
    let current = { config, handler };
    let view: RegisteredHandle<UiResourceConfig, UiHtml> | undefined;
    const build = (first: boolean): void => {
      const { config: c, handler: h } = current;
      const ui = c.app === undefined ? undefined : uiToolMeta(c.app, `Tool "${name}"`);
      const requires = c.requires === undefined ? undefined : requiredExtensions(c.requires, `Tool "${name}"`);
      const meta = ui === undefined ? c._meta : withUiMeta(c._meta, ui, `Tool "${name}"`);
      const input = c.input === undefined ? undefined : schemaOf(name, 'input', c.input);
      const output = c.output === undefined ? undefined : schemaOf(name, 'output', c.output);
      const tool = {
        name,
        ...(c.title !== undefined && { title: c.title }),
        ...(c.description !== undefined && { description: c.description }),
        inputSchema: (input?.jsonSchema ?? { type: 'object' }) as Record<string, unknown>,
        ...(output !== undefined && { outputSchema: output.jsonSchema as Record<string, unknown> }),
        ...(c.annotations !== undefined && { annotations: c.annotations }),
        ...(c.icons !== undefined && { icons: c.icons }),
        ...(meta !== undefined && { _meta: meta }),
        ...(c.timeoutMs !== undefined && { timeoutMs: c.timeoutMs }),
        ...(c.task !== undefined && { task: c.task }),
        ...(c.taskStart !== undefined && { taskStart: c.taskStart }),
        ...(c.scopes !== undefined && { scopes: checkedScopes(c.scopes, `tool "${name}"`) }),
        // Not async: a handler that answers synchronously is answered without a promise.
        execute: (args: Args<I>, ctx: RequestContext) => {
          if (requires !== undefined) requireExtensions(ctx.client.capabilities, requires);
          const value = h(args, ctx);
          const structured = output !== undefined;
          return isThenable(value) ? Promise.resolve(value).then((v) => toCallToolResult(v, structured)) : toCallToolResult(value, structured);
        },
      };
      const options = { ...(input && { input }), ...(output && { output }) };
      // app.html registers (then keeps up to date) the view the tool points to; a refused tool takes its new view back.
      let added: RegisteredHandle<UiResourceConfig, UiHtml> | undefined;
      if (c.app?.html !== undefined) {
        const { resourceUri, visibility: _visibility, html, ...settings } = c.app;
        if (view === undefined) view = added = this.uiResource(resourceUri, html, { name: `${name} view`, ...settings });
        else view.update({ ...settings, handler: html });
      }
      try {
        if (first) this.tools.register(tool, options);
        else this.tools.update(tool, options);
      } catch (error) {
        added?.remove();
        if (added) view = undefined;
        throw error;
      }
      if (ui !== undefined && !this.hasExtension(UI_EXTENSION_ID)) this.extension(UI_EXTENSION_ID);
    };
    build(true);
    return handle(this.tools, name, ({ handler: h, ...changes }) => {
      checkCall('tool.update', TOOL_SIGNATURE, name, changes, h ?? current.handler, TOOL_KEYS);
      current = { config: { ...current.config, ...changes }, handler: h ?? current.handler };
      build(false);
    });
  }

  /** Registers a static resource. The reader may return a string, bytes or contents objects. */
  resource(uri: string, config: ResourceConfig, reader: (ctx: RequestContext) => ResourceReturn | Promise<ResourceReturn>): RegisteredHandle<ResourceConfig, typeof reader> {
    checkCall('server.resource', RESOURCE_SIGNATURE, uri, config, reader, RESOURCE_KEYS);
    let current = { config, reader };
    const build = (first: boolean): void => {
      const { config: c, reader: r } = current;
      const resource = { ...c, ...(c.scopes !== undefined && { scopes: checkedScopes(c.scopes, `resource "${uri}"`) }), uri, name: c.name ?? uri, read: async (ctx: RequestContext) => toReadResult(uri, c.mimeType, await r(ctx)) };
      if (first) this.resources.register(resource);
      else this.resources.update(resource);
    };
    build(true);
    return handle(this.resources, uri, ({ handler, ...changes }) => {
      checkCall('resource.update', RESOURCE_SIGNATURE, uri, changes, handler ?? current.reader, RESOURCE_KEYS);
      current = { config: { ...current.config, ...changes }, reader: handler ?? current.reader };
      build(false);
    });
  }

  /**
   * Registers an MCP Apps view: a `ui://` resource served as `text/html;profile=mcp-app`
   * with its CSP and permissions in `_meta.ui` (on the listing and on the read contents).
   */
  uiResource(uri: string, html: UiHtml, config: UiResourceConfig = {}): RegisteredHandle<UiResourceConfig, UiHtml> {
    const owner = `UI resource ${JSON.stringify(uri)}`;
    checkUiUri(uri, 'server.uiResource');
    const parts = (c: UiResourceConfig): { resource: ResourceConfig; ui: UiResourceMeta } => {
      if (typeof c !== 'object' || c === null) throw new RegistrationError(`${owner}: the config must be an object (got ${kindOf(c)})`);
      refuseUnknownKeys(c, UI_RESOURCE_KEYS, `server.uiResource(${JSON.stringify(uri)}) config`, registrationError);
      const { csp, permissions, domain, prefersBorder, _meta, ...rest } = c;
      const ui = uiResourceMeta({ csp, permissions, domain, prefersBorder }, owner);
      const meta = Object.keys(ui).length === 0 ? _meta : withUiMeta(_meta, ui, owner);
      return { resource: { ...rest, mimeType: MCP_APP_MIME_TYPE, ...(meta !== undefined && { _meta: meta }) }, ui };
    };
    const checkHtml = (value: unknown): void => {
      if (typeof value === 'function') return;
      if (typeof value !== 'string') throw new RegistrationError(`${owner}: html must be the view's HTML or a function returning it (got ${kindOf(value)})`);
      if (!value.trimStart().startsWith('<')) {
        throw new RegistrationError(`${owner}: html must be an HTML document ("<!doctype html>…"); to serve a file, read it: readFileSync(path, 'utf8') (got ${JSON.stringify(value.slice(0, 40))})`);
      }
    };
    checkHtml(html);
    let current = { config, html, ...parts(config) };
    const reader = async (): Promise<ResourceReturn> => {
      const { html: h, ui } = current;
      const text = typeof h === 'function' ? await h() : h;
      if (typeof text !== 'string') throw new TypeError(`${owner}: the html function returned ${kindOf(text)}, not a string`);
      return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text, ...(Object.keys(ui).length > 0 && { _meta: { ui } }) }] };
    };
    const resource = this.resource(uri, current.resource, reader);
    if (!this.hasExtension(UI_EXTENSION_ID)) this.extension(UI_EXTENSION_ID);
    return {
      ...resource,
      get enabled() {
        return resource.enabled;
      },
      update: ({ handler, ...changes }) => {
        if (handler !== undefined) checkHtml(handler);
        const next = { ...current.config, ...changes };
        current = { config: next, html: handler ?? current.html, ...parts(next) };
        resource.update(current.resource);
      },
    };
  }

  /** Registers an RFC 6570 resource template; the reader gets the matched variables. */
  resourceTemplate<const T extends string>(
    uriTemplate: T,
    config: ResourceTemplateConfig<T>,
    reader: TemplateReader<T>,
  ): RegisteredHandle<ResourceTemplateConfig<T>, TemplateReader<T>> {
    checkCall('server.resourceTemplate', TEMPLATE_SIGNATURE, uriTemplate, config, reader, TEMPLATE_KEYS);
    let current = { config, reader };
    const build = (first: boolean): void => {
      const { config: c, reader: r } = current;
      const template = {
        ...c,
        ...(c.scopes !== undefined && { scopes: checkedScopes(c.scopes, `resource template "${uriTemplate}"`) }),
        uriTemplate,
        name: c.name ?? uriTemplate,
        // The matcher yields exactly the variables TemplateVariables<T> describes.
        read: async (uri: string, vars: Record<string, string | string[]>, ctx: RequestContext) => toReadResult(uri, c.mimeType, await r(uri, vars as TemplateVariables<T>, ctx)),
      };
      if (first) this.resources.templates.register(template);
      else this.resources.templates.update(template);
    };
    build(true);
    return handle(this.resources.templates, uriTemplate, ({ handler, ...changes }) => {
      checkCall('resourceTemplate.update', TEMPLATE_SIGNATURE, uriTemplate, changes, handler ?? current.reader, TEMPLATE_KEYS);
      current = { config: { ...current.config, ...changes }, reader: handler ?? current.reader };
      build(false);
    });
  }

  /** Registers a prompt; declared required arguments are checked before the handler runs. */
  prompt<const A extends readonly McpPromptArgument[] = readonly McpPromptArgument[]>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): RegisteredHandle<PromptConfig<A>, PromptHandler<A>> {
    checkCall('server.prompt', PROMPT_SIGNATURE, name, config, handler, PROMPT_KEYS);
    let current = { config, handler };
    const build = (first: boolean): void => {
      const { config: c, handler: h } = current;
      const prompt = { ...c, ...(c.scopes !== undefined && { scopes: checkedScopes(c.scopes, `prompt "${name}"`) }), name, get: async (args: Record<string, string> | undefined, ctx: RequestContext) => toMessages(await h((args ?? {}) as PromptArgs<A>, ctx)) };
      if (first) this.prompts.register(prompt);
      else this.prompts.update(prompt);
    };
    build(true);
    return handle(this.prompts, name, ({ handler: h, ...changes }) => {
      checkCall('prompt.update', PROMPT_SIGNATURE, name, changes, h ?? current.handler, PROMPT_KEYS);
      current = { config: { ...current.config, ...changes }, handler: h ?? current.handler };
      build(false);
    });
  }
}
