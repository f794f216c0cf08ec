/**
 * client.skills against mcpkit's own skills server in both eras: listing reads no file, fetch
 * reads SKILL.md only and each other file when asked, by entry, URI or name; a file edited
 * after the listing is refused (digest), and a hostile entry is left out with a warning.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, InMemoryTransport, McpError, SkillVerificationError, type ClientTransport } from '../../src/client.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/message.js';
import { McpServer } from '../../src/server/server.js';

const SKILL = '---\nname: release-notes\ndescription: Write release notes from merged pull requests\n---\n\nRead references/STYLE.md first.\n';
const STYLE = 'One line per change, imperative mood.\n';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function skillFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-client-skills-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'release-notes', 'references'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'release-notes', 'SKILL.md'), SKILL);
  fs.writeFileSync(path.join(dir, 'release-notes', 'references', 'STYLE.md'), STYLE);
  return dir;
}

/** The in-memory transport, recording every resources/read the client sends. */
function recording(server: McpServer, reads: string[]): ClientTransport {
  const inner = new InMemoryTransport(server);
  return {
    start: (sink) => inner.start(sink),
    send: (message: JsonRpcMessage, info) => {
      if ('method' in message && message.method === 'resources/read') reads.push(String((message.params as { uri: string }).uri));
      return inner.send(message, info);
    },
    close: () => inner.close(),
  };
}

describe.each(['2025-11-25', '2026-07-28'] as const)('client.skills (%s)', (protocolVersion) => {
  it('lists without reading, fetches SKILL.md only, reads a reference when asked, verified', async () => {
    const server = new McpServer({ name: 'skills', version: '1.0.0' });
    server.skills(skillFolder());
    const reads: string[] = [];
    const client = new Client({ protocolVersion });
    await client.connect(recording(server, reads));
    const { skills } = await client.skills.list();
    expect(skills.map((s) => s.uri)).toEqual(['skill://release-notes/SKILL.md']);
    expect(reads).toEqual([]);
    const skill = await client.skills.fetch(skills[0]!);
    expect(skill.name).toBe('release-notes');
    expect(skill.body).toContain('references/STYLE.md');
    expect(reads).toEqual(['skill://release-notes/SKILL.md']);
    expect(await skill.readText('references/STYLE.md')).toBe(STYLE);
    expect(reads).toEqual(['skill://release-notes/SKILL.md', 'skill://release-notes/references/STYLE.md']);
    // By URI (skills/get) and by name (skills/list), the same skill.
    expect((await client.skills.fetch('skill://release-notes/SKILL.md')).frontmatter).toEqual(skill.frontmatter);
    expect((await client.skills.fetch('release-notes')).entry).toEqual(skill.entry);
    const missing = await client.skills.fetch('no-such-skill').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(McpError);
    expect((missing as Error).message).toContain('no skill named "no-such-skill"');
    await client.close();
  });

  it('refuses a file edited after the listing, and reads nothing it was not listed', async () => {
    const dir = skillFolder();
    const server = new McpServer({ name: 'skills', version: '1.0.0' });
    server.skills(dir);
    const reads: string[] = [];
    const client = new Client({ protocolVersion });
    await client.connect(recording(server, reads));
    const skill = await client.skills.fetch('release-notes');
    fs.writeFileSync(path.join(dir, 'release-notes', 'references', 'STYLE.md'), STYLE.replace('One', 'Two'));
    const error = await skill.readText('references/STYLE.md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).reason).toBe('digest');
    const escape = await skill.readText('../other/SKILL.md').catch((e: unknown) => e);
    expect((escape as SkillVerificationError).reason).toBe('unlisted');
    expect(reads.filter((uri) => uri.includes('other'))).toEqual([]);
    await client.close();
  });
});

it('leaves out a malformed entry a hostile server lists, with a warning', async () => {
  const server = new McpServer({ name: 'hostile', version: '1.0.0' });
  server.skills(skillFolder());
  const warnings: string[] = [];
  const client = new Client({ protocolVersion: '2025-11-25', onWarning: (m) => warnings.push(m) });
  const inner = new InMemoryTransport(server);
  // The server's answers pass through a rewrite that adds an entry whose file leaves the skill.
  await client.connect({
    start: (sink) =>
      inner.start({
        ...sink,
        message: (message) => {
          const m = message as { result?: { skills?: unknown[] } };
          if (Array.isArray(m.result?.skills)) m.result.skills.push({ uri: 'skill://evil/SKILL.md', frontmatter: { name: 'evil', description: 'x' }, resources: [{ uri: 'skill://etc/passwd', digest: `sha256:${'0'.repeat(64)}`, size: 1 }] });
          sink.message(message);
        },
      }),
    send: (message, info) => inner.send(message, info),
    close: () => inner.close(),
  });
  const { skills } = await client.skills.list();
  expect(skills.map((s) => s.uri)).toEqual(['skill://release-notes/SKILL.md']);
  expect(warnings).toEqual([expect.stringContaining('skill://etc/passwd')]);
  await client.close();
});
