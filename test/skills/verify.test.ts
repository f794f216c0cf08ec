/**
 * The client half of SEP-2640 without a transport: an entry a (possibly hostile) server
 * sent is checked, each file read is verified against it (size, digest, front matter)
 * and nothing is read before it is needed. The tampered fixtures are the ones the
 * conformance suite's client scenarios serve (sep-2640-client-verify-*).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSkillEntry, fetchSkill, SkillVerificationError, verifySkillFile, type SkillEntry } from '../../src/client.js';

const SKILL = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n';
const FORMS = 'Supporting content.\n';
const SKILL_URI = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';
const digest = (text: string | Uint8Array): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

function entry(): SkillEntry {
  return {
    uri: SKILL_URI,
    frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' },
    resources: [
      { uri: SKILL_URI, digest: digest(SKILL), size: Buffer.byteLength(SKILL) },
      { uri: FORMS_URI, digest: digest(FORMS), size: Buffer.byteLength(FORMS) },
    ],
  };
}

async function failure(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SkillVerificationError);
  return error as SkillVerificationError;
}

/** A reader over fixed files that records what it was asked for. */
function reader(files: Record<string, string>): { read: (uri: string) => { contents: { uri: string; text: string }[] }; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read: (uri) => {
      reads.push(uri);
      const text = files[uri];
      if (text === undefined) throw new Error(`no ${uri}`);
      return { contents: [{ uri, mimeType: 'text/markdown', text } as { uri: string; text: string }] };
    },
  };
}

describe('fetchSkill', () => {
  it('reads SKILL.md when called and each other file only when asked for (nothing prefetched)', async () => {
    const { read, reads } = reader({ [SKILL_URI]: SKILL, [FORMS_URI]: FORMS });
    const skill = await fetchSkill(read, entry());
    expect(reads).toEqual([SKILL_URI]);
    expect(skill).toMatchObject({ name: 'pdf-processing', root: 'skill://pdf-processing', body: '\nSkill body.\n' });
    expect(await skill.readText('references/FORMS.md')).toBe(FORMS);
    expect(reads).toEqual([SKILL_URI, FORMS_URI]);
  });

  it.each([
    ['digest', SKILL.replace('Skill body.', 'Evil body!!')],
    ['size', `${SKILL}extra bytes the entry did not account for\n`],
  ] as const)('refuses a SKILL.md whose %s does not match the entry, and reads nothing more', async (reason, served) => {
    const { read, reads } = reader({ [SKILL_URI]: served, [FORMS_URI]: FORMS });
    const error = await failure(fetchSkill(read, entry()));
    expect(error.reason).toBe(reason);
    expect(error.uri).toBe(SKILL_URI);
    expect(error.message).toContain('skills/get');
    expect(reads).toEqual([SKILL_URI]);
  });

  it('refuses a SKILL.md whose front matter differs from the entry even when digest and size match (the entry was made for it)', async () => {
    const served = SKILL.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials');
    const tampered: SkillEntry = { ...entry(), resources: [{ uri: SKILL_URI, digest: digest(served), size: Buffer.byteLength(served) }] };
    const { read } = reader({ [SKILL_URI]: served });
    const error = await failure(fetchSkill(read, tampered));
    expect(error.reason).toBe('frontmatter');
    expect(error.message).toContain('"description"');
  });

  it('a supporting file that changed after the listing fails with a digest mismatch', async () => {
    const { read } = reader({ [SKILL_URI]: SKILL, [FORMS_URI]: 'Supporting CONTENT.\n' });
    const skill = await fetchSkill(read, entry());
    expect((await failure(skill.readFile('references/FORMS.md'))).reason).toBe('digest');
  });

  it('refuses files the entry does not list, and paths out of the skill, without reading them', async () => {
    const { read, reads } = reader({ [SKILL_URI]: SKILL });
    const skill = await fetchSkill(read, entry());
    for (const path of ['references/OTHER.md', '../other-skill/SKILL.md', 'references/../../x', 'skill://other/SKILL.md', '/etc/passwd']) {
      expect((await failure(skill.readFile(path))).reason).toBe('unlisted');
    }
    expect(reads).toEqual([SKILL_URI]);
  });

  it('decodes blob contents and refuses a dynamic entry unless allowUnverified', async () => {
    const blobReader = (uri: string) => ({ contents: [{ uri, blob: Buffer.from(uri === SKILL_URI ? SKILL : FORMS).toString('base64') }] });
    expect(await (await fetchSkill(blobReader, entry())).readText('references/FORMS.md')).toBe(FORMS);
    const dynamic = { ...entry(), resources: 'dynamic' as const };
    expect((await failure(fetchSkill(blobReader, dynamic))).reason).toBe('entry');
    const loaded = await fetchSkill(blobReader, dynamic, { allowUnverified: true });
    expect(loaded.frontmatter['name']).toBe('pdf-processing');
  });
});

describe('verifySkillFile', () => {
  it('returns the bytes when size and digest match; flips of any byte are caught', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), async (bytes, at) => {
        const e: SkillEntry = { uri: SKILL_URI, frontmatter: entry().frontmatter, resources: [{ uri: SKILL_URI, digest: digest(SKILL), size: Buffer.byteLength(SKILL) }, { uri: FORMS_URI, digest: digest(bytes), size: bytes.length }] };
        expect(await verifySkillFile(e, FORMS_URI, bytes)).toBe(bytes);
        const flipped = bytes.slice();
        flipped[at % bytes.length]! ^= 1;
        expect((await failure(verifySkillFile(e, FORMS_URI, flipped))).reason).toBe('digest');
      }),
      { numRuns: 50 },
    );
  });

  it('a SKILL.md whose front matter cannot be read is a front matter failure', async () => {
    const broken = '---\nname: pdf-processing\ndescription: [unclosed\n---\n';
    const e: SkillEntry = { ...entry(), resources: [{ uri: SKILL_URI, digest: digest(broken), size: Buffer.byteLength(broken) }] };
    const error = await failure(verifySkillFile(e, SKILL_URI, broken));
    expect(error.reason).toBe('frontmatter');
    expect(error.message).toMatch(/line 3/);
  });
});

describe('checkSkillEntry (what a hostile server may send)', () => {
  const good = entry();
  const files = good.resources as { uri: string; digest: string; size: number }[];
  it.each([
    ['not an object', 'skill://x/SKILL.md', /not an object/],
    ['a uri that is not a SKILL.md', { ...good, uri: 'skill://pdf-processing/README.md' }, /must name the skill's SKILL.md/],
    ['a name that differs from the path', { ...good, uri: 'skill://other/SKILL.md' }, /folder is "other"/],
    ['a forbidden name', { ...good, uri: 'skill://PDF/SKILL.md', frontmatter: { name: 'PDF', description: 'd' } }, /upper-case/],
    ['no description', { ...good, frontmatter: { name: 'pdf-processing' } }, /"description" field is missing/],
    ['a file outside the skill', { ...good, resources: [...files, { uri: 'skill://other/SKILL.md', digest: files[0]!.digest, size: 1 }] }, /not a file of the skill/],
    ['a ".." segment', { ...good, resources: [...files, { uri: 'skill://pdf-processing/../x/SKILL.md', digest: files[0]!.digest, size: 1 }] }, /"\.\." segment/],
    ['a file listed twice', { ...good, resources: [...files, files[1]] }, /listed twice/],
    ['a bad digest', { ...good, resources: [files[0], { ...files[1]!, digest: 'sha256:ABC' }] }, /not sha256/],
    ['a negative size', { ...good, resources: [files[0], { ...files[1]!, size: -1 }] }, /not a byte count/],
    ['no entry for SKILL.md', { ...good, resources: [files[1]] }, /does not list SKILL.md/],
    ['more files than the limit', { ...good, resources: Array.from({ length: 513 }, (_, i) => ({ uri: `skill://pdf-processing/f${i}`, digest: files[0]!.digest, size: 1 })) }, /limit is 512/],
    ['more bytes than the limit', { ...good, resources: [files[0], { ...files[1]!, size: 17 * 1024 * 1024 }] }, /more than 16777216 bytes/],
  ])('refuses %s', (_what, value, message) => {
    const error = (() => {
      try {
        checkSkillEntry(value);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).reason).toBe('entry');
    expect((error as Error).message).toMatch(message);
  });

  it('accepts a well-formed entry and any JSON it never trusts blindly', () => {
    expect(checkSkillEntry(good)).toEqual(good);
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      try {
        checkSkillEntry(value);
      } catch (error) {
        expect(error).toBeInstanceOf(SkillVerificationError);
      }
    }));
  });
});
