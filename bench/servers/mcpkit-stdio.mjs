// mcpkit over stdio, written as the README shows it.
import { StdioTransport } from '../../dist/index.js';
import { installMemoryProbe } from './_common.mjs';
import { createServer } from './mcpkit-server.mjs';

installMemoryProbe();
const server = createServer();
await server.connect(new StdioTransport());
