// The soak benchmark's server: mcpkit's everything-server (every feature the conformance suite
// exercises) over HTTP, both eras and the 2024-11-05 SSE fallback, with a short idle timeout so that
// abandoned sessions are reaped (and finished tasks expire) within the run, and the SIGUSR2 memory probe (run with --expose-gc).
import { MemoryTaskStore } from '../../dist/index.js'; // mcpkit
import { listen } from '../../dist/http.js'; // mcpkit/http
import { createEverythingServer } from '../../examples/everything-server/server.js';
import { arg, installMemoryProbe } from './_common.mjs';

const port = Number(arg('port', '0'));
const idleMs = Number(arg('idle-ms', '3000'));
// Finished tasks expire as fast as idle sessions: each stays readable for its whole ttl and counts against the
// client's task quota until then, which a fast machine's traffic would otherwise fill.
const server = createEverythingServer({ tasks: { store: new MemoryTaskStore({ ttlMs: idleMs }) } });
const listener = await listen(server, { port, host: '127.0.0.1', legacySse: true, sessions: { idleTimeoutMs: idleMs } });
installMemoryProbe();
process.stderr.write(`LISTENING ${listener.url}\n`);
process.on('SIGTERM', () => void listener.close().finally(() => process.exit(0)));
