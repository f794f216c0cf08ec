/**
 * Elicitation answered in the terminal: the server's message, then one
 * question per field of its requested schema, read from stdin (a terminal or
 * a pipe). `!decline` or `!cancel` refuses; stdin at its end declines.
 */
import { str } from './text.js';
import { createInterface } from 'node:readline';
import type { Json } from './json.js';

let lines: AsyncIterator<string> | undefined;

async function ask(question: string): Promise<string | undefined> {
  process.stderr.write(question);
  lines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const next = await lines.next();
  if (next.done) {
    process.stderr.write('\n');
    return undefined;
  }
  return next.value;
}

function parseField(raw: string, schema: Json): { ok: true; value: unknown } | { ok: false; why: string } {
  const type = schema['type'];
  const choices = (schema['enum'] ?? (schema['oneOf'] as Json[] | undefined)?.map((o) => o['const'])) as unknown[] | undefined;
  if (choices && !choices.includes(raw)) return { ok: false, why: `one of ${choices.join(', ')}` };
  if (type === 'number' || type === 'integer') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) return { ok: false, why: type === 'integer' ? 'an integer' : 'a number' };
    return { ok: true, value: n };
  }
  if (type === 'boolean') {
    if (/^(y|yes|true)$/i.test(raw)) return { ok: true, value: true };
    if (/^(n|no|false)$/i.test(raw)) return { ok: true, value: false };
    return { ok: false, why: 'yes or no' };
  }
  if (type === 'array') return { ok: true, value: raw.split(',').map((s) => s.trim()).filter(Boolean) };
  return { ok: true, value: raw };
}

/** Answers one `elicitation/create` from the terminal. */
export async function elicitInTerminal(params: Json): Promise<Json> {
  process.stderr.write(`\n? ${str(params['message'] ?? 'The server asks for input')}\n`);
  if (params['mode'] === 'url') {
    process.stderr.write(`  open: ${str(params['url'])}\n`);
    const done = await ask('  press Enter when done (or !decline): ');
    return done === undefined || done.trim() === '!decline' ? { action: 'decline' } : { action: 'accept' };
  }
  const schema = (params['requestedSchema'] ?? {}) as Json;
  const required = new Set((schema['required'] ?? []) as string[]);
  const content: Json = {};
  for (const [key, field] of Object.entries((schema['properties'] ?? {}) as Record<string, Json>)) {
    const hint = [field['type'], field['default'] === undefined ? undefined : `default ${JSON.stringify(field['default'])}`, required.has(key) ? 'required' : undefined].filter(Boolean).join(', ');
    const label = `  ${str(field['title'] ?? key)}${field['description'] ? ` (${str(field['description'])})` : ''} [${hint}]: `;
    for (;;) {
      const raw = await ask(label);
      if (raw === undefined || raw.trim() === '!decline') return { action: 'decline' };
      if (raw.trim() === '!cancel') return { action: 'cancel' };
      if (raw === '') {
        if (field['default'] !== undefined) content[key] = field['default'];
        else if (required.has(key)) {
          process.stderr.write('  (required)\n');
          continue;
        }
        break;
      }
      const parsed = parseField(raw, field);
      if (parsed.ok) {
        content[key] = parsed.value;
        break;
      }
      process.stderr.write(`  expected ${parsed.why}\n`);
    }
  }
  return { action: 'accept', content };
}

/** Lets the process exit: stops reading stdin once the command is done. */
export function closePrompt(): void {
  void lines?.return?.();
  lines = undefined;
}
