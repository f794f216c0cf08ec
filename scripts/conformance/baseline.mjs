// The baseline, conformance/expected-failures.yaml: per requirement set, the
// scenarios expected to fail. A strict parser for exactly this shape:
//
//   2025-11-25:
//     - scenario-name    # optional comment (why)
//   2026-07-28: []
//
// Blank lines and whole-line comments are allowed anywhere.

export const BASELINE_HEADER = `# Conformance baseline: scenarios expected to FAIL, per requirement set.
#
# Rule: this list only shrinks. \`npm run conformance\` exits 1 when a scenario
# fails that is not listed here (a regression) and when a listed scenario now
# passes (a stale entry: delete it in the same change that fixed it). Scored and
# not_scored scenarios both count. Keep a short "# why" after each entry.
# Maintainers can regenerate it with \`node scripts/conformance.mjs --write-baseline\`
# (keeps existing comments); CI never does. See conformance/README.md.
`;

/** Parse baseline text into Map<revision, Map<scenario, comment>>. Throws on malformed input. */
export function parseBaseline(text, file) {
  const sets = new Map();
  let current = null;
  text.split(/\r?\n/).forEach((raw, index) => {
    const fail = (what) => {
      throw new Error(`${file}:${index + 1}: ${what}: ${raw.trim()}`);
    };
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const key = /^(\d{4}-\d{2}-\d{2}):\s*(\[\])?\s*(#.*)?$/.exec(line);
    if (key) {
      if (sets.has(key[1])) fail('duplicate requirement set');
      current = new Map();
      sets.set(key[1], current);
      if (key[2]) current = null; // `rev: []` takes no items
      return;
    }
    const item = /^\s+-\s+([A-Za-z0-9][\w./-]*)\s*(?:#\s?(.*))?$/.exec(line);
    if (!item) fail('expected "<revision>:" or "  - <scenario>  # why"');
    if (!current) fail('list item outside a requirement set');
    if (current.has(item[1])) fail('duplicate entry');
    current.set(item[1], (item[2] ?? '').trim());
  });
  return sets;
}

/** Render Map<revision, Map<scenario, comment>> in the format parseBaseline reads. */
export function formatBaseline(sets) {
  const out = [BASELINE_HEADER];
  for (const [revision, entries] of sets) {
    if (entries.size === 0) {
      out.push(`${revision}: []`);
      continue;
    }
    out.push(`${revision}:`);
    const width = Math.max(...[...entries.keys()].map((s) => s.length));
    for (const [scenario, comment] of entries) {
      out.push(comment ? `  - ${scenario.padEnd(width)}  # ${comment}` : `  - ${scenario}`);
    }
  }
  return `${out.join('\n')}\n`;
}
