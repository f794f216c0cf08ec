// Tools that need input from the client mid-call. On 2026-07-28 each call to
// ctx.elicit/sample/listRoots becomes an input request of a Multi Round-Trip
// Request; on a legacy session it is a server→client request. Same code.

const nameSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const none = { type: 'object', properties: {} };
const capital = { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 };
const textOf = (answer) => {
  const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
  return content?.type === 'text' ? content.text : JSON.stringify(content);
};

export function registerInputRequiredTools(server) {
  server.tool('test_input_required_result_elicitation', { description: 'Asks for the user name, then greets', input: none }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' });
    return `Hello, ${answer.content?.name ?? 'stranger'}!`;
  });

  server.tool('test_input_required_result_sampling', { description: 'Asks the client model a question', input: none }, async (_args, ctx) => {
    const answer = await ctx.sample(capital, { key: 'capital_question' });
    return `The model said: ${textOf(answer)}`;
  });

  server.tool('test_input_required_result_list_roots', { description: 'Asks the client for its roots', input: none }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots({ key: 'client_roots' });
    return `Found ${roots.length} root(s)`;
  });

  server.tool('test_input_required_result_request_state', { description: 'Keeps state across rounds', input: none }, async (_args, ctx) => {
    ctx.requestState.marker ??= 'state-ok';
    const answer = await ctx.elicit({ message: 'Confirm?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }, { key: 'confirm' });
    return `Confirmed: ${JSON.stringify(answer.content ?? {})} (${ctx.requestState.marker})`;
  });

  server.tool('test_input_required_result_multiple_inputs', { description: 'Asks for three inputs at once', input: none }, async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' }),
      ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Write a greeting' } }], maxTokens: 50 }, { key: 'greeting' }),
      ctx.listRoots({ key: 'client_roots' }),
    ]);
    return `${textOf(greeting)} ${name.content?.name ?? ''} (${roots.roots.length} roots)`;
  });

  server.tool('test_input_required_result_multi_round', { description: 'Asks twice, one question per round', input: none }, async (_args, ctx) => {
    const first = await ctx.elicit({ message: 'Step 1: your name?', requestedSchema: nameSchema }, { key: 'step1' });
    const second = await ctx.elicit({ message: 'Step 2: your city?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } }, { key: 'step2' });
    return `Done: ${JSON.stringify(first.content ?? {})} ${JSON.stringify(second.content ?? {})}`;
  });

  server.tool('test_input_required_result_tampered_state', { description: 'Refuses a requestState it did not sign', input: none }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' });
    return `Hello, ${answer.content?.name ?? 'stranger'}!`;
  });

  server.tool('test_input_required_result_capabilities', { description: 'Asks only for what the client supports', input: none }, async (_args, ctx) => {
    const caps = ctx.client.capabilities;
    const asks = [];
    if (caps.elicitation) asks.push(ctx.elicit({ message: 'What is your name?', requestedSchema: nameSchema }, { key: 'user_name' }));
    if (caps.sampling) asks.push(ctx.sample(capital, { key: 'capital_question' }));
    if (caps.roots) asks.push(ctx.listRoots({ key: 'client_roots' }));
    const answers = await Promise.all(asks);
    return `Got ${answers.length} answer(s)`;
  });
}
