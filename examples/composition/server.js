// Composition: two servers mounted under namespaces, one reshaped by a transform, served as one.
// Run: node examples/composition/server.js  (PORT overrides 3005)
import { McpServer, transformProvider } from 'mcpkit';
import { listen } from 'mcpkit/http';

// A notes server, written and tested on its own.
const notes = new McpServer({ name: 'notes', version: '1.0.0' });
const store = new Map([['1', 'Buy milk']]);
notes.tool('add', { description: 'Adds a note', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, async (args) => {
  const id = String(store.size + 1);
  store.set(id, args.text);
  await notes.notifyResourceUpdated(`note://${id}`);
  return `added note ${id}`;
});
notes.resourceTemplate('note://{id}', { name: 'note', mimeType: 'text/plain' }, (_uri, vars) => store.get(String(vars.id)) ?? '');

// A weather server with an API key argument the gateway fills in, and an admin tool nobody should see.
const weather = new McpServer({ name: 'weather', version: '1.0.0' });
weather.tool('forecast', {
  description: 'Forecast for a city',
  input: { type: 'object', properties: { city: { type: 'string' }, apiKey: { type: 'string' } }, required: ['city', 'apiKey'] },
}, (args) => `Sunny in ${args.city} (key ${args.apiKey === 'demo-key' ? 'ok' : 'wrong'})`);
weather.tool('purge_cache', { description: 'Admin: purge', _meta: { tags: ['admin'] } }, () => 'purged');

const server = new McpServer({ name: 'composed', version: '1.0.0' });
server.tool('ping', { description: 'Liveness' }, () => 'pong');
// notes_add, notes+note://{id}
server.mount(notes, { namespace: 'notes' });
// weather_city_forecast(city): apiKey fixed, the admin tool hidden
server.mount(
  transformProvider(weather.asProvider(), {
    exclude: { tags: ['admin'] },
    tools: { forecast: { name: 'city_forecast', arguments: { apiKey: { value: 'demo-key' } } } },
  }),
  { namespace: 'weather' },
);

const listener = await listen(server, { port: Number(process.env.PORT ?? 3005) });
console.error(`composition example listening on ${listener.url}`);
