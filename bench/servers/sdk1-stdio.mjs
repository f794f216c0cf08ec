// Official SDK v1 (@modelcontextprotocol/sdk 1.32.2) over stdio, as its docs show.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { installMemoryProbe } from './_common.mjs';
import { createServer } from './sdk1-server.mjs';

installMemoryProbe();
const server = createServer();
await server.connect(new StdioServerTransport());
