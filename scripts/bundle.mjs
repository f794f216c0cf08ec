#!/usr/bin/env node
// The second step of `npm run build`, after tsc: the library entries of package.json#exports become
// one file each plus shared chunks (dist/chunks/), so `import 'mcpkit'` loads a handful of files
// instead of ~90. Node 20 pays ~0.3 ms per ES module it resolves, links and evaluates: this halves
// the import time and so a stdio server's cold start. Shared chunks keep one copy of every class
// across entries (`mcpkit` and `mcpkit/http` agree on `instanceof`). Packages stay external, but for @cfworker/json-schema (below).
// dist/cli is left as tsc wrote it: it reaches the library only through the entries
// (scripts/check-imports.mjs). The .d.ts files stay where tsc wrote them.
//
//   node scripts/bundle.mjs [--root DIR]
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const at = process.argv.indexOf('--root');
const root = path.resolve(at === -1 ? path.join(import.meta.dirname, '..') : process.argv[at + 1]);
const dist = path.join(root, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const input = {};
for (const [key, target] of Object.entries(pkg.exports)) {
  const file = typeof target === 'string' ? target : target.default;
  if (key === './package.json' || !file.startsWith('./dist/')) continue;
  input[file.slice('./dist/'.length).replace(/\.js$/, '')] = path.join(root, file);
}

// What `import 'mcpkit'` needs (the modules reachable from the root entry): one chunk of its own, so the
// root entry and mcpkit/stdio do not load the code only the HTTP side shares (the engine, sessions, the
// adapters, the cluster: 140 of 460 KB). A stdio server's cold start is mostly V8 compiling what it loads.
// @cfworker/json-schema is inlined: imported as a package it is 9 modules and a package resolution, about
// 12 ms of a stdio server's cold start on the 2-core bench machine, against 2 ms inside the core chunk (it is
// needed at import: `dereference` runs when a tool is registered). It is a dev dependency only: no emitted
// .d.ts names it (test/package/bundle.test.ts). No other package is inlined.
const INLINED = '@cfworker/json-schema';
const external = (id) => !id.startsWith('.') && !path.isAbsolute(id) && id !== INLINED;
const inlinedVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', INLINED, 'package.json'), 'utf8')).version;
const notice = `/*! ${INLINED} ${inlinedVersion}, MIT License, https://github.com/cfworker/cfworker: inlined by scripts/bundle.mjs */`;
const inlinedDir = `${path.sep}node_modules${path.sep}${INLINED.replace('/', path.sep)}${path.sep}`;
const rootOnly = await build({ input: { index: input.index }, platform: 'node', external, logLevel: 'warn', write: false });
const rootModules = new Set(rootOnly.output.flatMap((chunk) => chunk.moduleIds ?? []));

const staging = fs.mkdtempSync(path.join(dist, '.bundle-'));
try {
  await build({
    input,
    platform: 'node',
    // Dependencies and peers (express, fastify, hono, redis, jose, @opentelemetry/api) are the user's: never inlined.
    external,
    logLevel: 'warn',
    // What Rolldown picks anyway for the client group (includeDependenciesRecursively: false); said here so the build prints no warning.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: staging,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // What entries share is one of three chunks (core, shared, client), not one per combination of entries.
      // The client side (mcpkit/client, shared by the gateway, OpenAPI and testing) is a chunk of its own: in the
      // server's shared chunk it would make `import 'mcpkit'` load node:child_process (and break the fetch entry).
      codeSplitting: {
        groups: [
          // Only the client's own modules: what they import from the protocol core stays in the shared chunk.
          { name: 'client', test: /[\\/]dist[\\/]client[\\/]/, minShareCount: 2, priority: 2, includeDependenciesRecursively: false },
          // What the root entry loads and another entry shares; then what the other entries share among themselves.
          { name: 'core', test: (id) => rootModules.has(id), minShareCount: 2, priority: 2 },
          { name: 'shared', minShareCount: 2, priority: 1 },
        ],
      },
      // Class and function names survive the merge (error names, stack traces).
      keepNames: true,
      sourcemap: false,
      // The inlined package's licence notice, on the chunk that carries it.
      banner: (chunk) => (chunk.moduleIds.some((id) => id.includes(inlinedDir)) ? notice : ''),
      // API docs live in the .d.ts files editors read; in the JavaScript they only cost bytes to load (26 → 23 ms).
      comments: { jsdoc: false, legal: true, annotation: true },
    },
  });
  asciiOnly(staging);
  removeJs(dist, new Set([path.join(dist, 'cli'), staging]));
  moveInto(staging, dist);
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}
console.log(`bundle: ${Object.keys(input).length} entries → dist/ (${fs.readdirSync(path.join(dist, 'chunks')).length} shared chunks)`);

/** Deletes tsc's .js files under `dir`, except in `keep`: only the bundle's may be loaded. */
function removeJs(dir, keep) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (keep.has(full)) continue;
    if (entry.isDirectory()) {
      removeJs(full, keep);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
    } else if (entry.name.endsWith('.js')) fs.rmSync(full);
  }
}

/**
 * Escapes every non-ASCII character (`…` in messages, `—` in comments) as \\uXXXX: one such character makes V8
 * hold the whole source as a two-byte string, and the core chunk then takes about 2 ms (5 %) longer to import.
 * The same value in a string, template or regular expression literal (what would not be is refused).
 */
function asciiOnly(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) asciiOnly(full);
    else if (entry.name.endsWith('.js')) {
      const source = fs.readFileSync(full, 'utf8');
      // Where escaping would change a value: a raw template, or a character already escaped (`"\\…"`).
      if (source.includes('String.raw') || /\\[\u0080-\uffff]/.test(source)) throw new Error(`bundle: ${full}: cannot escape its non-ASCII characters safely`);
      const ascii = source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      if (ascii !== source) fs.writeFileSync(full, ascii);
    }
  }
}

function moveInto(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      moveInto(source, target);
    } else fs.renameSync(source, target);
  }
}
