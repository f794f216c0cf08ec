// fastmcp 4.20 over stdio, as its README shows.
import { installMemoryProbe } from './_common.mjs';
import { createServer } from './fastmcp-server.mjs';

installMemoryProbe();
const server = createServer();
await server.start({ transportType: 'stdio' });
