import { RED_PIXEL_PNG } from './media.js';

export function registerResources(server) {
  server.resource('test://static-text', { name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' }, () =>
    'This is the content of the static text resource.');

  server.resource('test://static-binary', { name: 'static-binary', description: 'A static PNG', mimeType: 'image/png' }, () =>
    Buffer.from(RED_PIXEL_PNG, 'base64'));

  server.resource('test://watched-resource', { name: 'watched-resource', description: 'A resource to subscribe to', mimeType: 'text/plain' }, () =>
    'Watched resource content');

  server.resourceTemplate('test://template/{id}/data', {
    name: 'template-data',
    description: 'Data for an id',
    mimeType: 'application/json',
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
  }, (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }));
}

export function registerPrompts(server) {
  server.prompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => 'This is a simple prompt for testing.');

  server.prompt('test_prompt_with_arguments', {
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
    complete: { arg1: (value) => ['test', 'testing', 'tested', 'other'].filter((v) => v.startsWith(value)) },
  }, ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`);

  server.prompt('test_prompt_with_embedded_resource', {
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'The URI to embed', required: true }],
  }, ({ resourceUri }) => [
    { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
    { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
  ]);

  server.prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => [
    { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ]);

  server.prompt('test_input_required_result_prompt', { description: 'Asks for context before building the prompt' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'What context should the prompt use?',
      requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
    }, { key: 'user_context' });
    return `Use this context: ${answer.content?.context ?? '(none)'}`;
  });
}

/** Diagnostic tools that change the lists, so listeners see list_changed. */
export function registerChangeTriggers(server) {
  let generation = 0;
  const dynamicPrompt = server.prompt('test_dynamic_prompt', { description: 'Changes when test_trigger_prompt_change runs' }, () => 'dynamic');
  const trigger = server.tool('test_trigger_tool_change', { description: 'Changes the tool list (sends tools/list_changed)', input: { type: 'object', properties: {} } }, () => {
    generation++;
    trigger.update({ description: `Changes the tool list (sends tools/list_changed); changed ${generation} time(s)` });
    return 'Tool list changed';
  });
  server.tool('test_trigger_prompt_change', { description: 'Changes the prompt list (sends prompts/list_changed)', input: { type: 'object', properties: {} } }, () => {
    generation++;
    dynamicPrompt.update({ description: `Changes when test_trigger_prompt_change runs; changed ${generation} time(s)` });
    return 'Prompt list changed';
  });
}
