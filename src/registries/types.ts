/**
 * The contracts a tool, resource or prompt implements, and the content shapes
 * they return. Hand-written from the MCP schema; the protocol layer reshapes
 * them for the negotiated revision.
 */

export type Meta = Record<string, unknown>;

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/** What describes a resource, in `resources/list` and in a resource link alike. */
export interface ResourceDescription {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ResourceLink extends ResourceDescription {
  type: 'resource_link';
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** A tool's result (`CallToolResult` on the wire). */
export interface McpToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool. `execute` receives the (validated) arguments and the request
 * context the protocol layer supplies.
 */
export interface McpTool<TInput = unknown, TContext = unknown> {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /** 2026-07-28 tasks extension: whether a call may (`optional`) or must (`required`) run as a task. */
  task?: 'optional' | 'required';
  /** `manual`: the task is created when the handler calls `ctx.startTask()` (default: before the handler runs). */
  taskStart?: 'immediate' | 'manual';
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  /** Aborts the handler's signal and answers an error result after this long (ms); never on the wire. */
  timeoutMs?: number;
  execute(input: TInput, context: TContext): Promise<McpToolResult> | McpToolResult;
}

/** A tool as `tools/list` shows it (what middleware on `tools/list` sees and may filter). */
export interface ToolDescription {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: Record<string, unknown>;
  _meta?: Meta;
}

/** What a resource read returns: one contents object or several. */
export type McpResourceContent = ResourceContents | { uri?: string; mimeType?: string; text: string; _meta?: Meta } | { uri?: string; mimeType?: string; blob: string; _meta?: Meta };

export type McpReadResult = McpResourceContent | readonly McpResourceContent[];

export interface McpResource<TContext = unknown> extends ResourceDescription {
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  read(context: TContext): Promise<McpReadResult> | McpReadResult;
}

/** Completes one argument or template variable: the values that start with `value`, best first. */
export type Completer<TContext = unknown> = (
  value: string,
  context: { arguments: Record<string, string>; request: TContext },
) => readonly string[] | Promise<readonly string[]>;

export interface McpResourceTemplate<TContext = unknown> extends ResourceTemplateDescription {
  /** Completers for template variables, by variable name. */
  complete?: { readonly [name: string]: Completer<TContext> | undefined };
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  read(uri: string, variables: Record<string, string | string[]>, context: TContext): Promise<McpReadResult> | McpReadResult;
}

export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A resource template as `resources/templates/list` shows it. */
export interface ResourceTemplateDescription {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: Annotations;
  _meta?: Meta;
}

/** A prompt as `prompts/list` shows it. */
export interface PromptDescription {
  name: string;
  title?: string;
  description?: string;
  arguments?: readonly McpPromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface McpPrompt<TContext = unknown> {
  name: string;
  title?: string;
  description?: string;
  arguments?: readonly McpPromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
  /** Completers for arguments, by argument name. */
  complete?: { readonly [name: string]: Completer<TContext> | undefined };
  /** OAuth scopes a caller needs (HTTP `auth`): without them the call gets a 403 step-up challenge. */
  scopes?: readonly string[];
  get(args: Record<string, string> | undefined, context: TContext): Promise<readonly McpPromptMessage[]> | readonly McpPromptMessage[];
}
