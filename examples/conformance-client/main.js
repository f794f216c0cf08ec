#!/usr/bin/env node
// The program the official conformance suite runs as "the client" (`conformance client --command …`):
// the server URL is the last argument, the scenario in MCP_CONFORMANCE_SCENARIO, the revision in
// MCP_CONFORMANCE_PROTOCOL_VERSION, scenario data in MCP_CONFORMANCE_CONTEXT (JSON). Plain Node and
// the built mcpkit/client, so that the suite's concurrent scenarios start fast.
import { Client, SkillVerificationError, StreamableHttpTransport, clientCredentials, headlessAuthorizer, oauth } from 'mcpkit/client';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** A value for each property of a JSON Schema object (what a model would fill in). */
function sample(schema) {
  const out = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) continue;
    if (property.type === 'number' || property.type === 'integer') out[key] = 1;
    else if (property.type === 'boolean') out[key] = true;
    else if (property.type === 'string') out[key] = Array.isArray(property.enum) ? property.enum[0] : 'conformance';
  }
  return out;
}

const client = new Client({
  clientInfo: { name: 'mcpkit-conformance-client', version: '1.0.0' },
  protocolVersion: revision,
  // Accept with nothing filled in: the client applies requestedSchema's defaults (SEP-1034).
  elicitation: (params) => ({ action: 'accept', content: params.mode === 'url' ? undefined : { ...sample(params.requestedSchema) } }),
  sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'conformance' }, model: 'conformance-model' }),
  roots: [{ uri: 'file:///conformance', name: 'conformance' }],
  onWarning: (message) => console.error(`warning: ${message}`),
});

const scenarios = {
  /** Lists the tools and calls each one with arguments its input schema asks for. */
  async default() {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const args = tool.name === 'add_numbers' ? { a: 2, b: 3 } : sample(tool.inputSchema);
      const result = await client.callTool(tool.name, args);
      console.error(`${tool.name}: ${JSON.stringify(result.content ?? []).slice(0, 200)}`);
    }
  },
  /** The context names the calls to make (http-custom-headers). */
  async fromContext() {
    await client.listTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments);
  },
  /** Echoes the focal tool's inputSchema back verbatim. */
  async 'json-schema-2020-12-preservation'() {
    const { tools } = await client.listTools();
    const focal = tools.find((tool) => tool.name !== 'json_schema_echo');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
  /** Lists only: the call itself is not what the scenario checks. */
  async 'json-schema-ref-no-deref'() {
    await client.listTools();
  },
  /** Skills (SEP-2640): listing reads no file of any skill. */
  async 'sep-2640-client-no-prefetch'() {
    await client.skills.list();
  },
  'sep-2640-client-verify-digest': loadFirstSkill,
  'sep-2640-client-verify-size': loadFirstSkill,
  'sep-2640-client-verify-frontmatter': loadFirstSkill,
};

/** The "model" asks for the first skill and follows its reference: a failed verification stops it before the second read. */
async function loadFirstSkill() {
  const { skills } = await client.skills.list();
  try {
    const skill = await client.skills.fetch(skills[0]);
    await skill.readText('references/FORMS.md');
    console.error(`loaded ${skill.name}`);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    console.error(`refused: ${error.reason}: ${error.message}`);
  }
}

/** The auth/ scenarios: client credentials when the scenario hands them over, else the code flow without a person. */
function authProvider() {
  if (!scenario.startsWith('auth/')) return undefined;
  if (scenario.startsWith('auth/client-credentials')) {
    return context.private_key_pem
      ? clientCredentials({ clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm })
      : clientCredentials({ clientId: context.client_id, clientSecret: context.client_secret });
  }
  return oauth({
    authorizer: headlessAuthorizer({ redirectUri: 'http://127.0.0.1:3333/callback' }),
    clientName: 'mcpkit-conformance-client',
    // The suite's CIMD scenarios expect this URL as client_id (it is never fetched).
    clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    ...(context.client_id ? { preRegistered: { clientId: context.client_id, clientSecret: context.client_secret } } : {}),
  });
}

try {
  const auth = authProvider();
  await client.connect(new StreamableHttpTransport(url, auth ? { auth } : {}));
  const run = scenarios[scenario] ?? (context.toolCalls ? scenarios.fromContext : scenarios.default);
  await run();
  await client.close();
} catch (error) {
  console.error(`conformance client (${scenario}): ${error?.stack ?? error}`);
  await client.close();
  process.exitCode = 1;
}
