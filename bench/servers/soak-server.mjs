// The soak benchmark's server: mcpkit's everything-server (every feature the conformance suite
// exercises) over HTTP, both eras and the 2024-11-05 SSE fallback, with a short idle timeout so that
// abandoned sessions are reaped within the run, and the SIGUSR2 memory probe (run with --expose-gc).
import { listen } from '../../dist/http.js'; // mcpkit/http
import { createEverythingServer } from '../../examples/everything-server/server.js';
import { arg, installMemoryProbe } from './_common.mjs';

const port = Number(arg('port', '0'));
const idleMs = Number(arg('idle-ms', '5000'));
const server = createEverythingServer();
const listener = await listen(server, { port, host: '127.0.0.1', legacySse: true, sessions: { idleTimeoutMs: idleMs } });
installMemoryProbe();
process.stderr.write(`LISTENING ${listener.url}\n`);
process.on('SIGTERM', () => void listener.close().finally(() => process.exit(0)));
