// Physical-limit reference for a gateway in front of a stdio server: a node:http server that writes
// each POSTed body as one line to one child process's stdin and answers it with the child's next
// response line, parsing nothing (no JSON, no ids, no sessions). What any Node HTTP-to-stdio hop
// costs at least, next to which bench/proxy.mjs puts the gateway's stdio cell.
//   node bench/servers/reference-stdio-hop.mjs <command> [args...]
// It relies on what the bench's traffic is and a real hop could not: one client, answered in the
// order it asked (a synchronous tool), so answers are matched first in, first out; a body without
// `"id"` is a notification (202, no line awaited), and a line without `"id"` a server notification
// (dropped). GET and DELETE get 405, as a server without a stream would answer.
import { spawn } from 'node:child_process';
import http from 'node:http';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
child.once('exit', (code) => {
  process.stderr.write(`reference stdio hop: the upstream exited (${code})\n`);
  process.exit(1);
});
const NEWLINE = Buffer.from('\n');
const ID = Buffer.from('"id"');
const waiting = [];
let head = 0;
let carry;

child.stdout.on('data', (chunk) => {
  let data = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
  carry = undefined;
  for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10)) {
    const line = data.subarray(0, end);
    data = data.subarray(end + 1);
    if (line.indexOf(ID) === -1) continue;
    const res = waiting[head];
    waiting[head++] = undefined;
    if (head > 1024 && head * 2 > waiting.length) waiting.splice(0, head), (head = 0);
    res?.writeHead(200, { 'content-type': 'application/json', 'content-length': String(line.length) }).end(line);
  }
  if (data.length > 0) carry = Buffer.from(data);
});

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (body.indexOf(ID) === -1) res.writeHead(202).end();
    else waiting.push(res);
    child.stdin.write(Buffer.concat([body, NEWLINE]));
  });
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`reference stdio hop on http://127.0.0.1:${server.address().port}/mcp\n`));
