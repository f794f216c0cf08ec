/* global Bun */
// Bun.serve with the fetch handler, on 127.0.0.1 and a port the OS picks; prints it.
import { createHandler } from './server.mjs';

const handler = createHandler();
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, bunServer) => handler(request, bunServer) });
console.log(`listening ${server.port}`);
