/**
 * server.skills() (SEP-2640) on real folders: what it serves on both eras (every message
 * schema-validated by the test client), what it refuses at registration (names, front
 * matter, sizes, paths out of the folder), what it refuses at read time (a link swapped
 * out, a file grown past the limit), and that a client verifying against the entry
 * catches a file changed after the listing.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, RegistrationError, type SkillsOptions, type SkillSource } from '../../src/index.js';
import { fetchSkill, SkillVerificationError } from '../../src/client.js';
import type { TestClient } from '../../src/testing/index.js';
import { client, connected, LEGACY, MODERN } from '../protocol/support.js';
import { eventually } from '../support/eventually.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with these files (paths relative to it). */
function folder(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpkit-skills-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const skillMd = (name: string, description = `The ${name} skill`, extra = ''): string => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\nSee [the guide](references/GUIDE.md).\n`;
const sha = (bytes: string | Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);

function twoSkills(): string {
  return folder({
    'pdf-processing/SKILL.md': skillMd('pdf-processing', 'Extract, fill, and assemble PDF documents', 'license: Apache-2.0\nmetadata:\n  version: "2.1"\n'),
    'pdf-processing/references/GUIDE.md': '# Guide\n',
    'pdf-processing/assets/logo.png': PNG,
    'pdf-processing/.DS_Store': 'ignored',
    'git-workflow/SKILL.md': skillMd('git-workflow'),
    'not-a-skill/README.md': 'no SKILL.md here',
  });
}

function serve(source: SkillSource | SkillSource[], options?: SkillsOptions, config: Partial<ConstructorParameters<typeof McpServer>[0]> = {}): McpServer {
  return new McpServer({ name: 'skills', version: '1.0.0', logger: { error: () => undefined, warn: () => undefined }, ...config }).skills(source, options);
}

function registrationError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistrationError);
    return (error as Error).message;
  }
  throw new Error('expected a RegistrationError');
}

/** The test client's resources/read as fetchSkill's reader. */
const readerOf = (c: TestClient) => async (uri: string) => c.readResource(uri);

describe.each(['legacy', MODERN] as const)('server.skills() on %s', (era) => {
  const open = async (server: McpServer): Promise<TestClient> => (era === 'legacy' ? connected(server) : client(server, { modern: true }));

  it('declares the extension and serves every file of each skill folder with its digest and size', async () => {
    const dir = twoSkills();
    const c = await open(serve(dir, { directoryRead: true }));
    const init = await c.initialize(era === 'legacy' ? { protocolVersion: LEGACY } : {});
    expect(init.capabilities['extensions']).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(init.capabilities['resources']).toBeDefined();

    const list = await c.request('skills/list');
    const pdfFiles = ['SKILL.md', 'assets/logo.png', 'references/GUIDE.md'];
    expect(list['skills']).toEqual([
      {
        uri: 'skill://git-workflow/SKILL.md',
        frontmatter: { name: 'git-workflow', description: 'The git-workflow skill' },
        resources: [{ uri: 'skill://git-workflow/SKILL.md', digest: sha(fs.readFileSync(path.join(dir, 'git-workflow/SKILL.md'))), size: fs.statSync(path.join(dir, 'git-workflow/SKILL.md')).size }],
      },
      {
        uri: 'skill://pdf-processing/SKILL.md',
        frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', license: 'Apache-2.0', metadata: { version: '2.1' } },
        resources: pdfFiles.map((rel) => {
          const bytes = fs.readFileSync(path.join(dir, 'pdf-processing', rel));
          return { uri: `skill://pdf-processing/${rel}`, digest: sha(bytes), size: bytes.length };
        }),
      },
    ]);
    if (era === 'legacy') expect(list['ttlMs']).toBeUndefined();
    else expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });

    const resources = (await c.listResources()).resources;
    expect(resources.find((r) => r.uri === 'skill://pdf-processing/SKILL.md')).toEqual({
      uri: 'skill://pdf-processing/SKILL.md',
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      mimeType: 'text/markdown',
      size: fs.statSync(path.join(dir, 'pdf-processing/SKILL.md')).size,
    });
    const png = (await c.readResource('skill://pdf-processing/assets/logo.png')).contents[0] as { blob: string; mimeType: string };
    expect(png.mimeType).toBe('image/png');
    expect(Buffer.from(png.blob, 'base64')).toEqual(PNG);

    // A client verifying what it reads against the entry loads the skill, lazily.
    const skill = await fetchSkill(readerOf(c), (list['skills'] as unknown[])[1]);
    expect(skill.body).toContain('# pdf-processing');
    expect(await skill.readFile('assets/logo.png')).toEqual(new Uint8Array(PNG));
  });

  it('skills/get answers for a served skill and -32602 for anything else', async () => {
    const c = await open(serve(twoSkills()));
    const got = await c.request('skills/get', { uri: 'skill://git-workflow/SKILL.md' });
    expect((got['skill'] as { uri: string }).uri).toBe('skill://git-workflow/SKILL.md');
    expect(got['nextCursor']).toBeUndefined();
    for (const uri of ['skill://nope/SKILL.md', 'skill://git-workflow', 42]) {
      await expect(c.request('skills/get', { uri })).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('skills/list pages by pageSize, one whole entry per item', async () => {
    const c = await open(serve(twoSkills(), {}, { results: { pageSize: 1 } }));
    const first = await c.request('skills/list');
    expect((first['skills'] as unknown[]).length).toBe(1);
    const second = await c.request('skills/list', { cursor: first['nextCursor'] as string });
    expect(second['nextCursor']).toBeUndefined();
    expect((second['skills'] as { resources: unknown[] }[])[0]!.resources).toHaveLength(3);
    await expect(c.request('skills/list', { cursor: 'bogus' })).rejects.toMatchObject({ code: -32602 });
  });

  it('resources/directory/read lists direct children, sub-folders as inode/directory, and -32602 for a file', async () => {
    const dir = twoSkills();
    const c = await open(serve([dir, { prefix: 'acme/billing', files: { 'SKILL.md': skillMd('refunds'), 'examples/email.md': 'Dear customer' } }], { directoryRead: true }));
    const root = await c.request('resources/directory/read', { uri: 'skill://pdf-processing' });
    expect(root['resources']).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', name: 'pdf-processing', mimeType: 'text/markdown', size: fs.statSync(path.join(dir, 'pdf-processing/SKILL.md')).size },
      { uri: 'skill://pdf-processing/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    expect((await c.request('resources/directory/read', { uri: 'skill://acme' }))['resources']).toEqual([{ uri: 'skill://acme/billing', name: 'billing', mimeType: 'inode/directory' }]);
    expect(((await c.request('resources/directory/read', { uri: 'skill://acme/billing/refunds/examples' }))['resources'] as { uri: string }[]).map((r) => r.uri)).toEqual(['skill://acme/billing/refunds/examples/email.md']);
    for (const uri of ['skill://pdf-processing/SKILL.md', 'skill://pdf-processing/', 'skill://missing']) {
      await expect(c.request('resources/directory/read', { uri })).rejects.toMatchObject({ code: -32602 });
    }
    // Without directoryRead the method is not offered.
    const plain = await open(serve(twoSkills()));
    await expect(plain.request('resources/directory/read', { uri: 'skill://pdf-processing' })).rejects.toMatchObject({ code: -32601 });
  });

  it('a file changed after the listing no longer matches its digest, and the client refuses it', async () => {
    const dir = twoSkills();
    const c = await open(serve(dir));
    const entry = (await c.request('skills/get', { uri: 'skill://pdf-processing/SKILL.md' }))['skill'];
    const guide = path.join(dir, 'pdf-processing/references/GUIDE.md');
    fs.writeFileSync(guide, '# GUIDE\n'); // same size, other bytes
    const skill = await fetchSkill(readerOf(c), entry);
    await expect(skill.readFile('references/GUIDE.md')).rejects.toMatchObject({ reason: 'digest' });
    fs.writeFileSync(path.join(dir, 'pdf-processing/SKILL.md'), skillMd('pdf-processing', 'Something else entirely'));
    const error = await fetchSkill(readerOf(c), entry).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).reason).toBe('size');
  });
});

describe('server.skills() refuses at registration', () => {
  it.each([
    ['an upper-case name', 'Bad_Name', /upper-case/],
    ['a leading hyphen', '-lead', /starts or ends with "-"/],
    ['a double hyphen', 'a--b', /"--"/],
    ['a name of 65 characters', 'a'.repeat(65), /most is 64/],
    ['other characters', 'caf\u00e9', /may only hold a-z, 0-9 and "-"/],
  ])('%s', (_what, name, message) => {
    const dir = folder({ [`${name}/SKILL.md`]: skillMd(name) });
    expect(registrationError(() => serve(path.join(dir, name)))).toMatch(message);
  });

  it('a name that is not its folder name, missing fields and malformed front matter, with the file and line', () => {
    expect(registrationError(() => serve(path.join(folder({ 'pdf/SKILL.md': skillMd('pdf-tools') }), 'pdf')))).toMatch(/"name" is "pdf-tools" but the skill's folder is "pdf"/);
    expect(registrationError(() => serve(folder({ 'a/SKILL.md': '---\nname: a\n---\n' })))).toMatch(/"description" field is missing/);
    const malformed = registrationError(() => serve(folder({ 'a/SKILL.md': '---\nname: a\ndescription: Use when: asked\n---\n' })));
    expect(malformed).toMatch(/a\/SKILL\.md: line 3: a ": " inside a value: quote the value/);
    expect(registrationError(() => serve(folder({ 'a/SKILL.md': '# no front matter\n' })))).toMatch(/must begin with YAML front matter/);
    expect(registrationError(() => serve(folder({ 'a/SKILL.md': skillMd('a', 'd', 'metadata:\n  version: 1.0\n') })))).toMatch(/"metadata.version" must be text \(write it in quotes/);
    expect(registrationError(() => serve(folder({ 'a/README.md': 'x' })))).toMatch(/holds no skill/);
  });

  it('a symbolic link out of the skill folder (a file or a folder), but not one inside it', () => {
    const outside = folder({ 'secret.txt': 'TOP SECRET', 'other-skill/SKILL.md': skillMd('other-skill') });
    const dir = folder({ 'a/SKILL.md': skillMd('a'), 'a/references/GUIDE.md': 'guide' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'a/references/secret.txt'));
    expect(registrationError(() => serve(path.join(dir, 'a')))).toMatch(/references\/secret\.txt is a link to .*secret\.txt, outside the skill folder/);
    fs.rmSync(path.join(dir, 'a/references/secret.txt'));
    fs.symlinkSync(path.join(outside, 'other-skill'), path.join(dir, 'a/borrowed'));
    expect(registrationError(() => serve(path.join(dir, 'a')))).toMatch(/borrowed is a link to .*other-skill, outside the skill folder/);
    fs.rmSync(path.join(dir, 'a/borrowed'));
    fs.symlinkSync('GUIDE.md', path.join(dir, 'a/references/ALIAS.md'));
    fs.symlinkSync('.', path.join(dir, 'a/references/loop'));
    const server = serve(path.join(dir, 'a'));
    expect(server.resources.has('skill://a/references/ALIAS.md')).toBe(true);
  });

  it('a skill folder that is a link out of the folder of skills', () => {
    const outside = folder({ 'elsewhere/SKILL.md': skillMd('elsewhere') });
    const dir = folder({ 'a/SKILL.md': skillMd('a') });
    fs.symlinkSync(path.join(outside, 'elsewhere'), path.join(dir, 'elsewhere'));
    expect(registrationError(() => serve(dir))).toMatch(/elsewhere is a link to .*elsewhere, outside/);
  });

  it('paths out of a skill given in memory', () => {
    for (const rel of ['../x.md', 'a/../../x.md', '/etc/passwd', 'a//b', 'a\\b', './x']) {
      expect(registrationError(() => serve({ files: { 'SKILL.md': skillMd('m'), [rel]: 'x' } }))).toMatch(/is not a path inside the skill/);
    }
  });

  it('oversized files and skills, with the option to raise', () => {
    const dir = folder({ 'a/SKILL.md': skillMd('a'), 'a/big.bin': Buffer.alloc(2000) });
    expect(registrationError(() => serve(dir, { maxFileBytes: 1000 }))).toMatch(/big\.bin is 2000 bytes; the largest file served is maxFileBytes = 1000/);
    expect(registrationError(() => serve(dir, { maxSkillBytes: 1500 }))).toMatch(/add up to more than maxSkillBytes = 1500/);
    expect(registrationError(() => serve(dir, { maxFiles: 1 }))).toMatch(/more than maxFiles = 1 files/);
    expect(() => serve(dir, { maxFileBytes: 4000 })).not.toThrow();
  });

  it('options it does not know, naming the one meant; the same URI twice', () => {
    expect(registrationError(() => serve(twoSkills(), { directoryread: true } as SkillsOptions))).toMatch(/unknown option `directoryread` in server.skills\(\) options — did you mean `directoryRead`\?/);
    expect(registrationError(() => serve(twoSkills(), { prefix: '../x' }))).toMatch(/prefix "\.\.\/x" must be/);
    const dir = twoSkills();
    expect(registrationError(() => serve([dir, dir]))).toMatch(/two skills would serve skill:\/\/git-workflow\/SKILL\.md/);
    const server = serve(dir);
    expect(registrationError(() => server.skills(twoSkills(), { prefix: 'v2', directoryRead: true }))).toMatch(/directoryRead is one setting per server/);
    expect(() => server.skills(twoSkills(), { prefix: 'v2' })).not.toThrow();
  });
});

describe('server.skills() at read time', () => {
  it('does not follow a link swapped in after registration out of the folder', async () => {
    const outside = folder({ 'secret.txt': 'TOP SECRET' });
    const dir = folder({ 'a/SKILL.md': skillMd('a'), 'a/references/GUIDE.md': 'guide' });
    const c = await connected(serve(path.join(dir, 'a')));
    fs.rmSync(path.join(dir, 'a/references/GUIDE.md'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'a/references/GUIDE.md'));
    const error = await c.readResource('skill://a/references/GUIDE.md').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32002 });
    expect(JSON.stringify(c.messages)).not.toContain('TOP SECRET');
  });

  it('refuses a file that grew past maxFileBytes since registration', async () => {
    const dir = folder({ 'a/SKILL.md': skillMd('a'), 'a/notes.txt': 'small' });
    const c = await connected(serve(dir, { maxFileBytes: 1000 }));
    fs.writeFileSync(path.join(dir, 'a/notes.txt'), 'x'.repeat(5000));
    await expect(c.readResource('skill://a/notes.txt')).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('maxFileBytes (1000 bytes)') as unknown });
    fs.rmSync(path.join(dir, 'a/notes.txt'));
    await expect(c.readResource('skill://a/notes.txt')).rejects.toMatchObject({ code: -32002 });
  });
});

describe('server.skills({ watch: true })', () => {
  it('reloads a changed folder: new digests and files, resources/list_changed; a broken edit keeps the last good version', async () => {
    const dir = folder({ 'a/SKILL.md': skillMd('a'), 'a/references/GUIDE.md': 'guide' });
    const errors: string[] = [];
    const server = new McpServer({ name: 'w', version: '1', logger: { error: (m: string) => errors.push(m), warn: () => undefined } }).skills(dir, { watch: true });
    try {
      const c = await connected(server);
      const digestOf = async (): Promise<string> => ((await c.request('skills/list'))['skills'] as { resources: { digest: string }[] }[])[0]!.resources[0]!.digest;
      const before = await digestOf();
      fs.writeFileSync(path.join(dir, 'a/SKILL.md'), skillMd('a', 'Rewritten'));
      fs.writeFileSync(path.join(dir, 'a/references/NEW.md'), 'new');
      await eventually(async () => (await digestOf()) !== before);
      const entry = ((await c.request('skills/list'))['skills'] as { frontmatter: { description: string }; resources: { uri: string }[] }[])[0]!;
      expect(entry.frontmatter.description).toBe('Rewritten');
      expect(entry.resources.map((r) => r.uri)).toContain('skill://a/references/NEW.md');
      await eventually(() => c.messages.some((m) => (m as { method?: string }).method === 'notifications/resources/list_changed'));

      fs.writeFileSync(path.join(dir, 'a/SKILL.md'), '---\nname: a\n---\n');
      await eventually(() => errors.some((m) => m.includes('still serving the previous version') && m.includes('"description" field is missing')));
      expect((await c.request('skills/get', { uri: 'skill://a/SKILL.md' }))['skill']).toMatchObject({ frontmatter: { description: 'Rewritten' } });
    } finally {
      await server.stop();
    }
  });
});
