// Micro benchmark: @cfworker/json-schema (mcpkit's runtime validator: no code
// generation, runs on Cloudflare Workers / Deno Deploy) vs ajv (dev dependency,
// compiles schemas with `new Function`) on a typical 3-property tool schema.
//
//   node bench/validator.bench.mjs            # cfworker vs ajv
//   npm run build && node bench/validator.bench.mjs   # also mcpkit's compileSchema (from dist/)
//
// Prints ops/s (higher is better) for validating a valid and an invalid
// argument object, for compiling the schema, and for the `{type:'object'}`
// fast path.
import { Validator } from '@cfworker/json-schema';
import Ajv2020Module from 'ajv/dist/2020.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'What to search for' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['query'],
  additionalProperties: false,
};
const valid = { query: 'weather in Paris', limit: 10, tags: ['geo', 'now'] };
const invalid = { query: '', limit: 1.5, tags: ['geo', 3], extra: true };
const empty = {};
const trivial = { type: 'object' };

let sink = 0;

function bench(name, fn, ms = 600) {
  // warm up (lets the JIT settle), then count calls for `ms` milliseconds
  const warmEnd = performance.now() + 150;
  while (performance.now() < warmEnd) for (let i = 0; i < 100; i++) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    calls += 100;
    now = performance.now();
  }
  const opsPerSec = (calls / (now - start)) * 1000;
  console.log(`${name.padEnd(56)} ${Math.round(opsPerSec).toLocaleString('en-US').padStart(14)} ops/s`);
  return opsPerSec;
}

const ajvFirst = new Ajv2020({ strict: false }).compile(schema);
const ajvAll = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
const cfFirst = new Validator(structuredClone(schema), '2020-12', true);
const cfAll = new Validator(structuredClone(schema), '2020-12', false);

let mcpkit;
try {
  mcpkit = await import('../dist/index.js'); // the package entry: dist/ is bundled
} catch {
  mcpkit = undefined;
}
const mcpCompiled = mcpkit?.compileSchema(schema);
const mcpTrivial = mcpkit?.compileSchema(trivial);

console.log(`node ${process.version}, ${process.arch}\n`);
console.log('valid arguments');
bench('  ajv 2020 (first error)', () => (sink += ajvFirst(valid) ? 1 : 0));
bench('  ajv 2020 (allErrors)', () => (sink += ajvAll(valid) ? 1 : 0));
bench('  cfworker (shortCircuit)', () => (sink += cfFirst.validate(valid).valid ? 1 : 0));
bench('  cfworker (all errors, as mcpkit uses it)', () => (sink += cfAll.validate(valid).valid ? 1 : 0));
if (mcpCompiled) bench('  mcpkit compileSchema().validate', () => (sink += mcpCompiled.validate(valid).ok ? 1 : 0));

console.log('invalid arguments (4 problems)');
bench('  ajv 2020 (first error)', () => (sink += ajvFirst(invalid) ? 1 : 0));
bench('  ajv 2020 (allErrors)', () => (sink += ajvAll(invalid) ? 1 : 0));
bench('  cfworker (shortCircuit)', () => (sink += cfFirst.validate(invalid).valid ? 1 : 0));
bench('  cfworker (all errors)', () => (sink += cfAll.validate(invalid).valid ? 1 : 0));
if (mcpCompiled) bench('  mcpkit validate + error message', () => (sink += mcpCompiled.validate(invalid).ok ? 1 : 0));

console.log('compile one schema (startup cost per tool)');
bench('  ajv 2020 compile (new Ajv each time)', () => (sink += new Ajv2020({ strict: false }).compile(schema).length), 400);
const sharedAjv = new Ajv2020({ strict: false, addUsedSchema: false });
bench('  ajv 2020 compile (shared Ajv, fresh schema object)', () => (sink += sharedAjv.compile(structuredClone(schema)).length), 400);
bench('  cfworker new Validator', () => (sink += new Validator(structuredClone(schema), '2020-12', false) ? 1 : 0), 400);

console.log("fast path: {} against { type: 'object' }");
const ajvTrivial = new Ajv2020({ strict: false }).compile(trivial);
const cfTrivial = new Validator(structuredClone(trivial), '2020-12', false);
bench('  ajv 2020', () => (sink += ajvTrivial(empty) ? 1 : 0));
bench('  cfworker', () => (sink += cfTrivial.validate(empty).valid ? 1 : 0));
if (mcpTrivial) bench('  mcpkit (no validator call)', () => (sink += mcpTrivial.validate(empty).ok ? 1 : 0));

if (!mcpkit) console.log('\n(mcpkit rows skipped: run `npm run build` first)');
if (sink === 42) console.log('');
