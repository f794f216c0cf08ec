// What the physical-limit references answer: no MCP logic beyond the methods the driver sends.
// tools/call does the same work per tool shape (--tool) as the servers under test: a plain value
// for 'sync', an async function's promise for 'async', and one after a setImmediate for 'tick'.
import { toolShape } from './_common.mjs';

const toolText = (name, args) => (name === 'echo' ? args.text : String(args.a + args.b));
const tick = () => new Promise((resolve) => setImmediate(resolve));
const callTool =
  toolShape === 'sync'
    ? (name, args) => ({ content: [{ type: 'text', text: toolText(name, args) }] })
    : toolShape === 'async'
      ? async (name, args) => ({ content: [{ type: 'text', text: toolText(name, args) }] })
      : async (name, args) => {
          await tick();
          return { content: [{ type: 'text', text: toolText(name, args) }] };
        };

/** The result for `msg`: a value, or (tools/call with an async shape) a promise of one. */
export function answer(msg) {
  switch (msg.method) {
    case 'initialize':
      return {
        protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'reference', version: '1.0.0' },
      };
    case 'tools/call':
      return callTool(msg.params.name, msg.params.arguments);
    case 'tools/list':
      return { tools: [] };
    default:
      return {};
  }
}
