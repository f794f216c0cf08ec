/**
 * Runs the ```ts blocks of a docs page as modules: each is transpiled and written
 * under test-results/ (inside the package, so `import 'mcpkit'` resolves to the build).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));

export function snippetsOf(page: string): string[] {
  const text = readFileSync(`${root}docs/${page}`, 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** Imports the page's `index`th snippet and returns its exports. */
export async function runSnippet(page: string, index: number): Promise<Record<string, unknown>> {
  const source = snippetsOf(page)[index];
  if (source === undefined) throw new Error(`docs/${page} has no ts snippet #${index}`);
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const dir = `${root}test-results/snippets`;
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/${page.replace(/\W/g, '-')}-${index}.mjs`;
  writeFileSync(file, js);
  return (await import(`${pathToFileURL(file).href}?${Date.now()}`)) as Record<string, unknown>;
}
