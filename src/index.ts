/**
 * mcpkit: Model Context Protocol servers for TypeScript.
 * This entry is the authoring API (the server, definitions, results, errors, StdioTransport and
 * their types) and the names the seed APIs use; plumbing is `mcpkit/protocol`. Each name is
 * exported by exactly one entry (test/package/bundle.test.ts).
 */

// JSON-RPC 2.0
export { ErrorCode, JsonRpcProtocolError } from './jsonrpc/errors.js';
export type {
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
} from './jsonrpc/message.js';

// Registries and the contracts they hold
export {
  DuplicateRegistrationError,
  McpPromptArgumentError,
  McpPromptNotFoundError,
  McpResourceNotFoundError,
  McpUriTooLongError,
  McpToolNotFoundError,
  ToolError,
  ToolInputError,
  ToolOutputError,
} from './errors/classes.js';
export { errorCatalogue, httpStatusFor, type ErrorCodeName, type ErrorEntry } from './errors/codes.js';
export { McpPromptRegistry } from './registries/prompts.js';
export { DEFAULT_MAX_URI_LENGTH, McpResourceRegistry, McpResourceTemplateRegistry } from './registries/resources.js';
export { McpToolRegistry, type ToolRegistrationOptions } from './registries/tools.js';
export { RegistrationError } from './registries/checks.js';
export { InvalidHeaderParamError, type HeaderParam } from './registries/header-params.js';
export type { RegistryChange } from './registries/events.js';
export type * from './registries/types.js';
// The wire shapes (tools/list entries, results, capabilities, content): one name each, for servers, middleware, tests and mcpkit/client.
export type * from './wire-types/index.js';

// Protocol
export { McpErrorCode } from './errors/codes.js';
export type { AuthInfo } from './protocol/connection.js';
export { RequestContext, type AuthPrincipal, type ClientRequestOptions } from './protocol/request/context.js';
export type { Logger, McpProtocolHandlerDeps, ProtocolLimits, ProtocolOptions, RequestStateOptions, ResultOptions, ServerTaskOptions } from './protocol/scopes/options.js';
export { ConnectionClosedError, MissingClientCapabilityError, RequestTimeoutError } from './protocol/wire/errors.js';
export { TaskInputTimeoutError } from './protocol/scopes/task-runtime.js';
export { McpProtocolHandler } from './protocol/dispatch/protocol-handler.js';
export type { McpServerMetadata } from './protocol/wire/metadata.js';
export type { MethodTypes, MiddlewareContext, MiddlewareFn } from './protocol/methods/middleware-types.js';
export { ClientRequestError, ClientRequestTimeoutError, MalformedClientAnswerError } from './protocol/request/outbound.js';
export { UriTemplateError } from './registries/uri-template.js';
export type { ProtocolVersion } from './protocol/wire/versions.js';

// Schemas
export { SchemaConversionError, withJsonSchema } from './schema/index.js';
export type { CompiledSchema, InferInput, InferOutput, JsonSchemaObject, SchemaInput, StandardSchemaV1 } from './schema/index.js';

// Stores
export { MemoryNotificationBus, type BusEvent, type BusListener, type NotificationBus, type UpdateAudience } from './stores/bus.js';
export { StoreUnavailableError } from './stores/errors.js';
export { MemoryTaskStore, TaskLimitError, type MemoryTaskStoreOptions, type TaskInputRequest, type TaskLimit, type TaskOwnership, type TaskPatch, type TaskRecord, type TaskStatus, type TaskStore } from './stores/tasks.js';
export type { TaskChannel, TaskSignal } from './stores/task-channel.js';

// Authoring
export { McpServer, type McpServerConfig, type McpServerLimits } from './server/server.js';
export type { PromptArgs, PromptConfig, PromptHandler, PromptReturn, RegisteredHandle, ResourceConfig, ResourceReturn, ResourceTemplateConfig, TemplateReader, ToolConfig, ToolHandler, ToolReturn, UiHtml, UiResourceConfig } from './server/authoring.js';
export type { TemplateVariables } from './registries/template-variables.js';

// MCP Apps (io.modelcontextprotocol/ui)
export { MCP_APP_MIME_TYPE, UI_EXTENSION_ID } from './apps/ui.js';
export type { ToolApp, UiCsp, UiPermissions, UiResourceMeta, UiToolMeta, UiVisibility } from './apps/ui.js';

// Agent Skills (io.modelcontextprotocol/skills, SEP-2640): serving (a client's verification is mcpkit/client's)
export type { SkillFiles, SkillFolder, SkillSource, SkillsOptions } from './skills/options.js';
export { SKILLS_EXTENSION } from './skills/format/verify.js';
export { FrontmatterError, parseFrontmatter, parseSkillFile, type Frontmatter, type FrontmatterValue, type ParsedSkillFile } from './skills/format/frontmatter.js';
export { sha256Digest } from './skills/format/digest.js';
export { frontmatterProblems, skillNameProblem } from './skills/format/names.js';

// Composition: providers, mounts (docs/composition.md)
export type { McpProvider, McpProviderChange, McpProviderList, McpResourceMatch } from './registries/provider.js';
export type { McpMountOptions } from './server/mount/mount.js';
export { transformProvider, type McpArgumentTransform, type McpItemFilter, type McpItemTransform, type McpProviderTransform, type McpToolTransform } from './compose/transform.js';
export type { McpProvided } from './server/server.js';

// Namespaced tool providers assembled into one server
export { toolSearchProvider, type McpToolSearchOptions } from './compose/tool-search.js';
export { assembleMcpServer, McpAssemblyError, runMcpStdio, type McpToolDef, type McpToolProvider } from './compose/assemble.js';

// Transports
export type { McpTransport } from './transports/transport.js';
export { OutputClosedError, StdioTransport, type StdioTransportConfig } from './transports/stdio.js';
