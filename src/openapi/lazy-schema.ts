/**
 * A raw JSON Schema advertised at once but compiled for validation only on first use. GitHub's
 * description gives 1,223 tools with 2,400 schemas; compiling them all at registration would cost
 * more than the whole rest of loading, for tools most sessions never call.
 */
import { compileSchema, type CompiledSchema, type StandardResult, type StandardSchemaV1, type ValidationResult } from '../schema/index.js';

type Value = Record<string, unknown>;

export function lazyJsonSchema(jsonSchema: Record<string, unknown>): StandardSchemaV1<Value, Value> {
  let compiled: CompiledSchema<Value> | undefined;
  const settle = (result: ValidationResult<Value>): StandardResult<Value> =>
    result.ok ? { value: result.value } : { issues: result.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
  return {
    '~standard': {
      version: 1,
      vendor: 'mcpkit-openapi',
      validate(value) {
        compiled ??= compileSchema(jsonSchema) as CompiledSchema<Value>;
        const result = compiled.validate(value);
        return result instanceof Promise ? result.then(settle) : settle(result);
      },
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}
