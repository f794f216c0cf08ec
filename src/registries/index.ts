export * from './errors.js';
export * from './events.js';
export { KeyedRegistry } from './registry.js';
export { McpPromptRegistry } from './prompts.js';
export { McpResourceRegistry, McpResourceTemplateRegistry } from './resources.js';
export { McpToolRegistry, type ToolRegistrationOptions } from './tools.js';
export type * from './types.js';
export { headerParamsOf, InvalidHeaderParamError, type HeaderParam } from './header-params.js';
