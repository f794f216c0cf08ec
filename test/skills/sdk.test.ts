/**
 * Skills through the official SDK clients over Streamable HTTP: v1 on 2025-11-25
 * (initialize, session) and v2 on 2026-07-28 (stateless), each listing skills with a
 * plain request, reading files with resources/read, and verifying them with fetchSkill.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen, type McpHttpListener } from '../../src/http.js';
import { McpServer } from '../../src/index.js';
import { fetchSkill } from '../../src/client.js';

const SKILL = '---\nname: release-notes\ndescription: Write release notes from merged pull requests\nmetadata:\n  team: docs\n---\n\nRead [the template](templates/NOTES.md).\n';
const TEMPLATE = '## What changed\n';

let listener: McpHttpListener;
beforeAll(async () => {
  const server = new McpServer({ name: 'skills-sdk', version: '1.0.0' });
  server.skills({ prefix: 'docs', files: { 'SKILL.md': SKILL, 'templates/NOTES.md': TEMPLATE } }, { directoryRead: true });
  listener = await listen(server, { port: 0 });
});
afterAll(async () => {
  await listener.close({ graceMs: 0 });
});

const ListResult = z.looseObject({ skills: z.array(z.looseObject({ uri: z.string() })) });
const DirectoryResult = z.looseObject({ resources: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })) });

describe('skills through the official SDK clients', () => {
  it('v1 on 2025-11-25: lists, reads and verifies a skill', async () => {
    const transport = new StreamableV1(new URL(listener.url));
    const sdk = new ClientV1({ name: 'sdk-v1', version: '1.32.2' });
    await sdk.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect(sdk.getServerCapabilities()?.['extensions']).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
      const { skills } = await sdk.request({ method: 'skills/list', params: {} }, ListResult);
      expect(skills.map((s) => s.uri)).toEqual(['skill://docs/release-notes/SKILL.md']);
      const skill = await fetchSkill((uri) => sdk.readResource({ uri }), skills[0]);
      expect(skill.frontmatter).toEqual({ name: 'release-notes', description: 'Write release notes from merged pull requests', metadata: { team: 'docs' } });
      expect(await skill.readText('templates/NOTES.md')).toBe(TEMPLATE);
      const dir = await sdk.request({ method: 'resources/directory/read', params: { uri: 'skill://docs/release-notes' } }, DirectoryResult);
      expect(dir.resources.map((r) => [r.uri, r.mimeType])).toEqual([
        ['skill://docs/release-notes/SKILL.md', 'text/markdown'],
        ['skill://docs/release-notes/templates', 'inode/directory'],
      ]);
    } finally {
      await sdk.close();
    }
  });

  it('v2 on 2026-07-28: lists with cache hints, gets one skill, verifies it', async () => {
    const sdk = new Client({ name: 'sdk-v2', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      expect(sdk.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(sdk.getServerCapabilities()?.['extensions']).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
      const list = await sdk.request({ method: 'skills/list', params: {} }, ListResult);
      expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      const { skill: entry } = await sdk.request({ method: 'skills/get', params: { uri: 'skill://docs/release-notes/SKILL.md' } }, z.looseObject({ skill: z.looseObject({}) }));
      expect(entry).toEqual(list.skills[0]);
      const skill = await fetchSkill((uri) => sdk.readResource({ uri }), entry);
      expect(skill.body).toContain('the template');
      expect(await skill.readText('templates/NOTES.md')).toBe(TEMPLATE);
    } finally {
      await sdk.close();
    }
  });
});
