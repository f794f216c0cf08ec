import { compileSchema, formatIssues, type CompiledSchema, type JsonSchemaObject } from '../schema/index.js';
import { McpToolNotFoundError, ToolInputError, ToolOutputError } from './errors.js';
import { headerParamsOf, type HeaderParam } from './header-params.js';
import { KeyedRegistry } from './registry.js';
import type { McpTool, McpToolResult } from './types.js';

interface Compiled {
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  headers: readonly HeaderParam[];
}

export interface ToolRegistrationOptions {
  /** Pre-compiled schemas (the authoring API passes Standard Schemas here). */
  input?: CompiledSchema;
  output?: CompiledSchema;
  /** Validate arguments against `inputSchema` before `execute` (default true). */
  validateInput?: boolean;
}

/**
 * Tools by name. `call` validates the arguments against the tool's input
 * schema (compiled once, at registration) and the structured output against
 * its output schema, then runs the tool.
 */
export class McpToolRegistry<TContext = unknown> extends KeyedRegistry<McpTool<never, TContext>> {
  readonly #compiled = new Map<string, Compiled>();

  constructor() {
    super('Tool');
  }

  register<TInput>(tool: McpTool<TInput, TContext>, options: ToolRegistrationOptions = {}): void {
    const compiled = compileFor(tool, options);
    this.add(tool.name, tool);
    this.#compiled.set(tool.name, compiled);
  }

  /** Swaps a registered tool's definition in place (keeps its position in the list). */
  update<TInput>(tool: McpTool<TInput, TContext>, options: ToolRegistrationOptions = {}): void {
    const compiled = compileFor(tool, options);
    this.replace(tool.name, tool);
    this.#compiled.set(tool.name, compiled);
  }

  override unregister(name: string): boolean {
    this.#compiled.delete(name);
    return super.unregister(name);
  }

  /** The tool's `x-mcp-header` parameters (checked against `Mcp-Param-*` headers on HTTP). */
  headerParams(name: string): readonly HeaderParam[] {
    return this.#compiled.get(name)?.headers ?? [];
  }

  async call<TInput = unknown>(name: string, input: TInput, context?: TContext): Promise<McpToolResult> {
    const tool = this.active(name);
    if (!tool) throw new McpToolNotFoundError(name);
    const compiled = this.#compiled.get(name);
    let args: unknown = input ?? {};
    if (compiled?.input) {
      const checked = await compiled.input.validate(args);
      if (!checked.ok) throw new ToolInputError(checked.message);
      args = checked.value;
    }
    const result = await tool.execute(args as never, context as TContext);
    if (compiled?.output && result.isError !== true) {
      if (result.structuredContent === undefined) {
        throw new ToolOutputError(name, 'the tool declares an outputSchema but returned no structuredContent');
      }
      const checked = await compiled.output.validate(result.structuredContent);
      if (!checked.ok) throw new ToolOutputError(name, formatIssues(checked.issues, 'structured content'));
    }
    return result;
  }
}

function compileFor(tool: McpTool<never, unknown>, options: ToolRegistrationOptions): Compiled {
  if (typeof tool.name !== 'string' || tool.name.length === 0) throw new TypeError('A tool needs a non-empty string name');
  return {
    input: options.validateInput === false ? undefined : options.input ?? (tool.inputSchema ? compileSchema(tool.inputSchema as JsonSchemaObject) : undefined),
    output: options.output ?? (tool.outputSchema ? compileSchema(tool.outputSchema as JsonSchemaObject, { io: 'output' }) : undefined),
    headers: headerParamsOf(tool.name, tool.inputSchema),
  };
}
