#!/usr/bin/env node
// Type-checks every ```ts / ```typescript snippet of README.md and docs/*.md against the
// package's own source (`mcpkit`, `mcpkit/http`, … resolve to src/ through `paths`), with
// the repository's strict compiler options, so documented examples cannot rot.
//
// Each snippet is its own module. Every snippet may use `server` (an McpServer) and `ctx` (a
// handler's RequestContext) without declaring them, as the guides do. An HTML comment on the
// line(s) right above a fence either declares, unseen by readers, the placeholders a snippet uses:
//   <!-- snippet: declare const userIds: string[]; -->
// or opts the snippet out, saying why (keep these rare):
//   <!-- snippet: skip (the official SDK's code, shown for comparison) -->
//
//   node scripts/check-snippets.mjs [--root DIR] [--also] [file.md …]
// Named files replace README.md and docs/*.md; with --also they are checked beside them, in the
// same program (its test checks a guide of its own and the repository's docs in one run: loading
// src/ is most of a run's time).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const argv = process.argv.slice(2);
const rootAt = argv.indexOf('--root');
const root = path.resolve(rootAt === -1 ? path.join(import.meta.dirname, '..') : argv.splice(rootAt, 2)[1]);
const alsoAt = argv.indexOf('--also');
if (alsoAt !== -1) argv.splice(alsoAt, 1);
const defaults = () => ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const docs = argv.length === 0 ? defaults() : alsoAt === -1 ? argv : [...defaults(), ...argv];

const FENCE = /^```(ts|typescript)\s*$/;
const DIRECTIVE = /<!--\s*snippet:([\s\S]*?)-->\s*$/;
const SKIP = /^\s*skip\s*\(([\s\S]+)\)\s*$/;

/** The `<!-- snippet: … -->` comment ending right above line `fence` (blank lines allowed between). */
function directiveAbove(lines, fence) {
  let end = fence - 1;
  while (end >= 0 && lines[end].trim() === '') end -= 1;
  if (end < 0 || !lines[end].trimEnd().endsWith('-->')) return undefined;
  let start = end;
  while (start >= 0 && !lines[start].includes('<!--')) start -= 1;
  const match = lines.slice(start, end + 1).join('\n').match(DIRECTIVE);
  return match?.[1];
}

/** @returns {{ doc: string, line: number, code: string, declare: string, skip?: string }[]} */
function extract(doc) {
  const lines = fs.readFileSync(path.resolve(root, doc), 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!FENCE.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end += 1;
    const directive = directiveAbove(lines, i) ?? '';
    const skip = directive.match(SKIP)?.[1];
    const declare = skip === undefined ? directive.trim() : '';
    out.push({ doc, line: start + 1, code: lines.slice(start, end).join('\n'), declare, ...(skip === undefined ? {} : { skip }) });
    i = end;
  }
  return out;
}

const snippets = docs.flatMap(extract);
const checked = snippets.filter((s) => s.skip === undefined);
const virtualDir = path.join(root, '.snippets');
const virtual = new Map(
  checked.map((s) => [path.join(virtualDir, `${path.basename(s.doc).replace(/\./g, '_')}_L${s.line}.ts`), s]),
);
const PRELUDE = path.join(virtualDir, 'prelude.d.ts');
const PRELUDE_TEXT = `import type { McpServer, RequestContext } from 'mcpkit';
declare global {
  const server: McpServer;
  const ctx: RequestContext;
}
export {};
`;

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const entry = (file) => [path.join(root, 'src', file)];
const options = {
  ...config.options,
  noEmit: true,
  declaration: false,
  rootDir: root,
  baseUrl: root,
  // A snippet may declare a name it never reads (`const server = …` shown for its shape).
  noUnusedLocals: false,
  paths: {
    mcpkit: entry('index.ts'),
    'mcpkit/testing': entry('testing/index.ts'),
    'mcpkit/*': entry('*.ts'),
  },
};

const host = ts.createCompilerHost(options);
const baseGetSourceFile = host.getSourceFile.bind(host);
// The snippet's own lines come first so diagnostics keep its line numbers; hidden declarations
// follow (declarations are hoisted). `export {}` makes every snippet a module of its own.
const textOf = (file) => (file === PRELUDE ? PRELUDE_TEXT : `${virtual.get(file).code}\n${virtual.get(file).declare}\nexport {};\n`);
const isVirtual = (file) => file === PRELUDE || virtual.has(file);
host.getSourceFile = (file, lang, ...rest) =>
  isVirtual(file) ? ts.createSourceFile(file, textOf(file), lang, true) : baseGetSourceFile(file, lang, ...rest);
const baseFileExists = host.fileExists.bind(host);
host.fileExists = (file) => isVirtual(file) || baseFileExists(file);
const baseReadFile = host.readFile.bind(host);
host.readFile = (file) => (isVirtual(file) ? textOf(file) : baseReadFile(file));

const program = ts.createProgram({ rootNames: [PRELUDE, ...virtual.keys()], options, host });
// Only the snippets are checked: asking for every file's diagnostics (getPreEmitDiagnostics) type-checked
// all of src/ too, three quarters of the run, for errors that were then dropped (tsc reports those).
const problems = [...virtual.keys()]
  .flatMap((file) => {
    const source = program.getSourceFile(file);
    return source === undefined ? [] : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
  })
  .filter((d) => d.file !== undefined && virtual.has(path.normalize(d.file.fileName)))
  .map((d) => {
    const s = virtual.get(path.normalize(d.file.fileName));
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${s.doc}:${s.line + line}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`;
  });

const skipped = snippets.filter((s) => s.skip !== undefined);
for (const s of skipped) console.log(`skipped ${s.doc}:${s.line} (${s.skip})`);
console.log(`check-snippets: ${docs.length} file(s): ${docs.join(' ')}`);
if (problems.length > 0) {
  console.error(`check-snippets: ${problems.length} error(s) in documented TypeScript\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check-snippets: ${checked.length} snippets type-check strict (${skipped.length} skipped)`);
