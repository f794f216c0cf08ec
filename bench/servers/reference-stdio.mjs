// Physical-limit reference for stdio: newline-delimited JSON in; per message:
// parse, build the response, stringify, write. No MCP logic beyond answering
// the methods the driver sends, no validation, no schema work.
import { answer } from './reference-answer.mjs';
import { installMemoryProbe } from './_common.mjs';

installMemoryProbe();

const send = (msg, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }) + '\n');

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) !== -1) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line.length === 0) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined || msg.method === undefined) continue; // notification or response
    const result = answer(msg);
    if (result instanceof Promise) result.then((r) => send(msg, r));
    else send(msg, result);
  }
});
process.stdin.on('end', () => process.exit(0));
