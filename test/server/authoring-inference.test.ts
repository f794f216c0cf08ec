/**
 * Type-level tests (checked by `tsc -p tsconfig.test.json`; vitest runs them as no-ops):
 * template variables typed from the template string, prompt arguments from their
 * declaration, and `tools/list` middleware seeing typed tools. A regression to a loose
 * `Record<string, …>` fails the typecheck.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { McpServer, type TemplateVariables, type ToolDescription } from '../../src/index.js';

const server = new McpServer({ name: 'types', version: '1.0.0' });

describe('resourceTemplate variables', () => {
  it('a simple variable is a string and a query variable is optional', () => {
    server.resourceTemplate('users://{id}/profile{?fields}', {}, (_uri, variables) => {
      expectTypeOf(variables).toEqualTypeOf<{ id: string; fields?: string }>();
      return '';
    });
    server.resourceTemplate('city://{name}/stats', {}, (_uri, { name }) => {
      expectTypeOf(name).toEqualTypeOf<string>();
      return name;
    });
  });

  it('operators with a prefix are optional, an exploded variable is a list, a prefix modifier is dropped', () => {
    expectTypeOf<TemplateVariables<'file:///{+path}{#frag}{/segments*}{?q,limit}{&x:3}'>>().toEqualTypeOf<{
      path: string;
      frag?: string;
      segments?: string[];
      q?: string;
      limit?: string;
      x?: string;
    }>();
    expectTypeOf<TemplateVariables<'x://{a,b}'>>().toEqualTypeOf<{ a: string; b?: string }>();
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<Record<string, string | string[]>>();
  });

  it('completers are keyed by the template variables', () => {
    server.resourceTemplate('users://{id}', { complete: { id: () => ['1'] } }, () => '');
    // Checked by the compiler only (registering it would throw as a duplicate).
    const _typo = (): unknown =>
      // @ts-expect-error: `user` is not a variable of the template
      server.resourceTemplate('users://{id}', { complete: { user: () => ['1'] } }, () => '');
  });
});

describe('prompt arguments', () => {
  it('a required argument is a string, any other is string | undefined', () => {
    server.prompt('review', { arguments: [{ name: 'language', required: true }, { name: 'focus' }] }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ language: string } & { focus?: string | undefined }>();
      expectTypeOf(args.focus).toEqualTypeOf<string | undefined>();
      return `${args.language}`;
    });
  });

  it('no declaration gives a string record; completers are keyed by argument name', () => {
    server.prompt('free', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
      return '';
    });
    const _typo = (): unknown =>
      // @ts-expect-error: `lang` is not a declared argument
      server.prompt('typo', { arguments: [{ name: 'language' }], complete: { lang: () => [] } }, () => '');
  });
});

describe('middleware', () => {
  it('tools/list middleware sees tool descriptions', () => {
    server.use('tools/list', async (_ctx, next) => {
      const result = await next();
      expectTypeOf(result.tools).toEqualTypeOf<ToolDescription[]>();
      return { ...result, tools: result.tools.filter((tool) => tool.annotations?.readOnlyHint === true) };
    });
  });
});
