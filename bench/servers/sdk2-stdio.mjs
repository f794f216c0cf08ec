// Official SDK v2 (@modelcontextprotocol/server 2.4.0) over stdio: serveStdio with a
// server factory, as its docs show (serves 2025-era and 2026-07-28 openings).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { installMemoryProbe } from './_common.mjs';
import { createServer } from './sdk2-server.mjs';

installMemoryProbe();
serveStdio(createServer);
