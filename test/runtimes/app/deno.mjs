/* global Deno */
// Deno.serve with the fetch handler, run with --allow-net=127.0.0.1 only; prints the port.
import { createHandler } from './server.mjs';

const handler = createHandler();
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, (request, info) => handler(request, info));
