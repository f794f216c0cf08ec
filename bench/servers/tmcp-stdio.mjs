// tmcp 1.20 over stdio with the zod adapter, as its README shows.
import { StdioTransport } from '@tmcp/transport-stdio';
import { installMemoryProbe } from './_common.mjs';
import { createServer } from './tmcp-server.mjs';

installMemoryProbe();
const server = createServer();
new StdioTransport(server).listen();
