/** The error classes of the catalogue (codes.ts) that registration, the registries and tools raise. */
import type { ErrorCodeName } from './codes.js';

/** Raised when a key is registered twice: a composition mistake, caught at registration. */
export class DuplicateRegistrationError extends Error {
  override readonly name = 'DuplicateRegistrationError';
  constructor(
    readonly kind: string,
    readonly key: string,
  ) {
    super(`${kind} "${key}" is already registered`);
  }
}

export class McpToolNotFoundError extends Error {
  override readonly name = 'McpToolNotFoundError';
  readonly errorCode: ErrorCodeName = 'tool_not_found';
  constructor(readonly toolName: string) {
    super(`Unknown tool: ${toolName}`);
  }
}

export class McpResourceNotFoundError extends Error {
  override readonly name: string = 'McpResourceNotFoundError';
  readonly errorCode: ErrorCodeName = 'resource_not_found';
  constructor(
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super(message);
  }
}

/** A URI longer than `maxUriLength`: refused before any template is tried (answered as resource-not-found). */
export class McpUriTooLongError extends McpResourceNotFoundError {
  override readonly name = 'McpUriTooLongError';
  override readonly errorCode: ErrorCodeName = 'uri_too_long';
  constructor(uri: string, readonly limit: number) {
    super(uri, `Resource URI too long: ${uri.length} characters, more than the limit of ${limit} (maxUriLength)`);
  }
}

export class McpPromptNotFoundError extends Error {
  override readonly name = 'McpPromptNotFoundError';
  readonly errorCode: ErrorCodeName = 'prompt_not_found';
  constructor(readonly promptName: string) {
    super(`Unknown prompt: ${promptName}`);
  }
}

/** A prompt was asked for without one of its required arguments. */
export class McpPromptArgumentError extends Error {
  override readonly name = 'McpPromptArgumentError';
  readonly errorCode: ErrorCodeName = 'prompt_argument_missing';
  constructor(
    readonly promptName: string,
    readonly missing: readonly string[],
  ) {
    super(`Prompt "${promptName}" is missing required argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  }
}

/**
 * An error whose message is meant for the model: a tool throws it to report a
 * failure the caller can act on. It is never masked.
 */
export class ToolError extends Error {
  override readonly name: string = 'ToolError';
  readonly errorCode: ErrorCodeName = 'tool_failed';
  readonly structuredContent: Record<string, unknown> | undefined;
  constructor(message: string, options?: { structuredContent?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.structuredContent = options?.structuredContent;
  }
}

/** The arguments did not match the tool's input schema (reported to the model as a tool error). */
export class ToolInputError extends ToolError {
  override readonly name = 'ToolInputError';
  override readonly errorCode: ErrorCodeName = 'tool_input_invalid';
}

/** A tool's structured output broke its own output schema: a server-side bug. */
export class ToolOutputError extends Error {
  override readonly name = 'ToolOutputError';
  readonly errorCode: ErrorCodeName = 'tool_output_invalid';
  constructor(
    readonly toolName: string,
    readonly detail: string,
  ) {
    super(`Tool "${toolName}" returned structuredContent that does not match its outputSchema: ${detail}`);
  }
}
