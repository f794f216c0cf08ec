// Node < 22 only: `node --import ./scripts/conformance/register.mjs <conformance cli>`.
// The conformance bundle does `import { globSync } from 'fs'`, an export Node 20
// lacks, so the CLI dies at load time. This installs a resolve hook (hook.mjs)
// that hands the bundle an `fs` with a minimal globSync (fs-shim.mjs).
import { register } from 'node:module';

register('./hook.mjs', import.meta.url);
