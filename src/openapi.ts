/**
 * `mcpkit/openapi`: an HTTP API described by OpenAPI 3.0 or 3.1 becomes MCP tools
 * (docs/openapi.md). YAML documents need the optional peer dependency `yaml`; the root
 * entry never imports this one.
 */
export { OpenApiError } from './openapi/errors.js';
export { DEFAULT_MAX_DOCUMENT_BYTES, loadOpenApiDocument, type LoadOptions as OpenApiLoadOptions, type OpenApiDocument, type OpenApiSource } from './openapi/load.js';
export type { OpenApiOperation, OpenApiParameter, OperationFilter, HttpMethod, ParameterLocation } from './openapi/operations.js';
export type { OpenApiCredential, Secret } from './openapi/credentials.js';
export type { OpenApiClientCredentials } from './openapi/oauth.js';
export {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  openApiRoutes,
  openApiTools,
  type OpenApiCallContext,
  type OpenApiOverride,
  type OpenApiTool,
  type OpenApiToolAnnotations,
  type OpenApiToolOptions,
  type ToolResult as OpenApiToolResult,
} from './openapi/tools.js';
export { DEFAULT_RESPONSE_HEADERS, RESPONSE_META as OPENAPI_RESPONSE_META } from './openapi/response.js';
export type { OpenApiReadContext, OpenApiResource, OpenApiResourceContent, OpenApiResourceTemplate, OpenApiRoute, OpenApiRoutes } from './openapi/resources.js';
export { addOpenApiTools, type OpenApiOptions } from './openapi/server.js';
export { openApiProvider } from './openapi/provider.js';
