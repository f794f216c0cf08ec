import { compileSchema, formatIssues, type CompiledSchema, type JsonSchemaObject, type ValidationResult } from '../schema/index.js';
import { isThenable } from '../util/thenable.js';
import { checkFunction, checkObjectSchema, checkToolName, kindOf, RegistrationError } from './checks.js';
import { McpToolNotFoundError, ToolInputError, ToolOutputError } from '../errors/classes.js';
import { headerParamsOf, type HeaderParam } from './header-params.js';
import { KeyedRegistry } from './registry.js';
import type { McpTool } from './types.js';
import type { McpToolResult } from '../wire-types/index.js';

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
  /** Refuse tool names outside the spec's rules (1-128 characters of A-Z a-z 0-9 _ - .); default true. */
  strictNames = true;

  constructor() {
    super('Tool');
  }

  register<TInput>(tool: McpTool<TInput, TContext>, options: ToolRegistrationOptions = {}): void {
    const compiled = compileFor(tool, options, this.strictNames);
    this.add(tool.name, tool);
    this.#compiled.set(tool.name, compiled);
  }

  /** Swaps a registered tool's definition in place (keeps its position in the list). */
  update<TInput>(tool: McpTool<TInput, TContext>, options: ToolRegistrationOptions = {}): void {
    const compiled = compileFor(tool, options, this.strictNames);
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
    return this.invoke(name, input, context);
  }

  /**
   * @internal `call` without a promise when the validators and the tool answer
   * synchronously (the common case): throws instead of rejecting then.
   */
  invoke(name: string, input: unknown, context?: TContext): McpToolResult | Promise<McpToolResult> {
    const tool = this.active(name);
    if (!tool) throw new McpToolNotFoundError(name);
    const compiled = this.#compiled.get(name);
    const args: unknown = input ?? {};
    const checked = compiled?.input?.validate(args);
    if (checked === undefined) return this.#execute(tool, compiled, args, context);
    if (isThenable(checked)) return Promise.resolve(checked).then((c) => this.#execute(tool, compiled, accepted(c), context));
    return this.#execute(tool, compiled, accepted(checked), context);
  }

  #execute(tool: McpTool<never, TContext>, compiled: Compiled | undefined, args: unknown, context: TContext | undefined): McpToolResult | Promise<McpToolResult> {
    const result = tool.execute(args as never, context as TContext);
    if (compiled?.output === undefined) return result;
    return isThenable(result) ? Promise.resolve(result).then((r) => checkOutput(tool.name, compiled.output!, r)) : checkOutput(tool.name, compiled.output, result);
  }
}

function accepted(checked: ValidationResult<unknown>): unknown {
  if (!checked.ok) throw new ToolInputError(checked.message);
  return checked.value;
}

/** The structured output against the tool's outputSchema (an error result is not checked). */
function checkOutput(name: string, output: CompiledSchema, result: McpToolResult): McpToolResult | Promise<McpToolResult> {
  if (result.isError === true) return result;
  if (result.structuredContent === undefined) {
    throw new ToolOutputError(name, 'the tool declares an outputSchema but returned no structuredContent');
  }
  const checked = output.validate(result.structuredContent);
  const verdict = (c: ValidationResult<unknown>): McpToolResult => {
    if (!c.ok) throw new ToolOutputError(name, formatIssues(c.issues, 'structured content'));
    return result;
  };
  return isThenable(checked) ? Promise.resolve(checked).then(verdict) : verdict(checked);
}

/**
 * Checks a definition and compiles its schemas, once. A raw `inputSchema` is
 * compiled even when input validation is off, so an invalid one is refused here.
 */
function compileFor(tool: McpTool<never, unknown>, options: ToolRegistrationOptions, strictNames: boolean): Compiled {
  if (typeof tool !== 'object' || tool === null) throw new RegistrationError(`A tool must be an object with a name and an execute function (got ${kindOf(tool)})`);
  if (typeof tool.name !== 'string' || tool.name.length === 0) throw new RegistrationError('A tool needs a non-empty string name');
  if (strictNames) checkToolName(tool.name);
  checkFunction(tool, 'execute', `Tool "${tool.name}"`);
  const declared = (schema: unknown, which: 'input' | 'output'): CompiledSchema | undefined => {
    if (schema === undefined) return undefined;
    const compiled = compileSchema(schema as JsonSchemaObject, which === 'output' ? { io: 'output' } : undefined);
    checkObjectSchema(tool.name, which, schema);
    return compiled;
  };
  const input = options.input ?? declared(tool.inputSchema, 'input');
  const output = options.output ?? declared(tool.outputSchema, 'output');
  if (options.input) checkObjectSchema(tool.name, 'input', options.input.jsonSchema);
  if (options.output) checkObjectSchema(tool.name, 'output', options.output.jsonSchema);
  return {
    input: options.validateInput === false ? undefined : input,
    output,
    headers: headerParamsOf(tool.name, tool.inputSchema),
  };
}
