import { ToolError } from 'mcpkit';
import { RED_PIXEL_PNG, SILENT_WAV } from './media.js';

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });

const none = { type: 'object', properties: {} };

/** Content tools, progress, logging and errors: the same in both protocol eras. */
export function registerBasicTools(server) {
  // Publishes notifications/resources/updated for any URI: on Redis (REDIS_URL) every instance's subscribers hear it.
  server.tool('test_trigger_resource_update', {
    description: 'Publishes notifications/resources/updated for a URI (to try subscriptions across instances)',
    input: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'] },
  }, async ({ uri }) => {
    await server.notifyResourceUpdated(String(uri));
    return `Published notifications/resources/updated for ${String(uri)}`;
  });

  server.tool('test_simple_text', { description: 'Returns a simple text response', input: none }, () =>
    'This is a simple text response for testing.');

  server.tool('test_image_content', { description: 'Returns an image', input: none }, () => ({
    content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }],
  }));

  server.tool('test_audio_content', { description: 'Returns an audio clip', input: none }, () => ({
    content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }],
  }));

  server.tool('test_embedded_resource', { description: 'Returns an embedded resource', input: none }, () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));

  server.tool('test_multiple_content_types', { description: 'Returns text, an image and a resource', input: none }, () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }));

  server.tool('test_tool_with_logging', { description: 'Sends three log messages while it runs', input: none }, async (_args, ctx) => {
    await ctx.log('info', 'Tool execution started');
    await sleep(50, ctx.signal);
    await ctx.log('info', 'Tool processing data');
    await sleep(50, ctx.signal);
    await ctx.log('info', 'Tool execution completed');
    return 'Logging test completed';
  });

  server.tool('test_logging_tool', { description: 'Logs at info level (only when the request asked for logs)', input: none }, async (_args, ctx) => {
    await ctx.log('info', 'test_logging_tool ran');
    return 'Logged (if a log level was requested)';
  });

  server.tool('test_tool_with_progress', { description: 'Reports progress 0, 50, 100', input: none }, async (_args, ctx) => {
    await ctx.progress(0, 100, 'started');
    await sleep(50, ctx.signal);
    await ctx.progress(50, 100, 'halfway');
    await sleep(50, ctx.signal);
    await ctx.progress(100, 100, 'done');
    return 'Progress test completed';
  });

  server.tool('test_error_handling', { description: 'Always fails with a tool error', input: none }, () => {
    throw new ToolError('This tool intentionally returns an error for testing');
  });

  server.tool('test_reconnection', { description: 'Closes its SSE stream mid-call; the result arrives on resumption', input: none }, async (_args, ctx) => {
    await sleep(20, ctx.signal);
    ctx.closeStream({ retryMs: 200 });
    await sleep(300, ctx.signal);
    return 'Reconnection test completed';
  });

  server.tool('json_schema_2020_12_tool', {
    description: 'A tool whose input schema uses JSON Schema 2020-12 keywords',
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  }, (args) => `Received: ${JSON.stringify(args)}`);

  server.tool('test_x_mcp_header', {
    description: 'Echoes a region carried in the Mcp-Param-Region header',
    input: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, level: { type: 'integer' } } },
  }, ({ region }) => `Region: ${region ?? 'none'}`);
}

/** Server→client requests: the same code asks a legacy session or runs as MRTR on 2026-07-28. */
export function registerClientRequestTools(server) {
  server.tool('test_sampling', {
    description: 'Asks the client model to answer a prompt',
    input: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  }, async ({ prompt }, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return `LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
  });

  server.tool('test_elicitation', {
    description: 'Asks the user for a username and email',
    input: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  }, async ({ message }, ctx) => {
    const answer = await ctx.elicit({
      message,
      requestedSchema: {
        type: 'object',
        properties: { username: { type: 'string', description: 'Your username' }, email: { type: 'string', description: 'Your email', format: 'email' } },
        required: ['username', 'email'],
      },
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

  server.tool('test_elicitation_sep1034_defaults', { description: 'Elicits a form whose fields have defaults', input: none }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Please review your profile',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Name', default: 'John Doe' },
          age: { type: 'integer', description: 'Age', default: 30 },
          score: { type: 'number', description: 'Score', default: 95.5 },
          status: { type: 'string', description: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verified', default: true },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

  server.tool('test_elicitation_sep1330_enums', { description: 'Elicits every enum shape', input: none }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Pick some options',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
          legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
          untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] }, minItems: 1, maxItems: 3 },
          titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
        },
      },
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });

  server.tool('test_missing_capability', { description: 'Needs the client sampling capability', input: none }, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'ping' } }], maxTokens: 10 });
    return `Sampled with model ${answer.model}`;
  });

  server.tool('test_streaming_elicitation', { description: 'Elicits input (as MRTR on 2026-07-28, never as a server request)', input: none }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Anything to add?', requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } });
    return `Got: ${JSON.stringify(answer.content ?? {})}`;
  });
}
