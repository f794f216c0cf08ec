/** Calls back (debounced) when files under the watched paths change; node_modules and .git are ignored. */
import { watch, type FSWatcher } from 'node:fs';
import { join, relative } from 'node:path';

const IGNORED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

export function watchPaths(paths: string[], onChange: (files: string[]) => void, debounceMs = 120): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = paths.map((path) =>
    watch(path, { recursive: true }, (_event, name) => {
      const file = name === null ? path : join(path, name.toString());
      if (IGNORED.test(relative(path, file))) return;
      changed.add(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...changed];
        changed.clear();
        onChange(files);
      }, debounceMs);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
