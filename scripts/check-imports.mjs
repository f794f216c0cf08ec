#!/usr/bin/env node
// Fails on any import cycle in src/ (type-only imports and `export … from` included) and on
// any import that points up the layer order in scripts/layers.json. Imports are read with
// TypeScript's own pre-processor (no type-check), so the check is fast and needs no new
// dependency. Known cycles live in an allow-list that may only shrink: a listed cycle that
// no longer exists exactly is an error too, so whoever removes one also removes its entry.
//
//   node scripts/check-imports.mjs [--root DIR] [--src src] [--layers FILE] [--allow FILE] [--doc FILE]
import { checkImports } from './check-imports/check.mjs';

const { status, out } = checkImports(process.argv.slice(2));
if (status === 0) console.log(out);
else console.error(out);
process.exitCode = status;
