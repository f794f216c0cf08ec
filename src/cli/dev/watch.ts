/**
 * Calls back (debounced) when files under the watched paths change; node_modules and .git are ignored.
 *
 * Every folder is watched on its own, not with `fs.watch(path, { recursive: true })`: on Linux, Node
 * 20's recursive watch follows each file's inode, so after one save that replaces the file (sed -i,
 * and the atomic save of many editors) it never reports that file again and `mcpkit dev` stops
 * reloading. A folder's own watch reports its entries by name, whatever inode they have.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const IGNORED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

export function watchPaths(paths: string[], onChange: (files: string[]) => void, debounceMs = 120): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const changedFile = (file: string): void => {
    changed.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, debounceMs);
  };

  /** Watches `dir` and the folders under it; `only` limits the reported entries to one name (a watched file). */
  const watchFolder = (dir: string, root: string, only?: string): void => {
    const key = only === undefined ? dir : `${dir}\0${only}`;
    if (closed || watchers.has(key) || IGNORED.test(relative(root, dir))) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (name === null) return changedFile(dir);
        const entry = name.toString();
        if (only !== undefined && entry !== only) return;
        const file = join(dir, entry);
        if (IGNORED.test(relative(root, file))) return;
        if (only === undefined && isFolder(file)) watchFolder(file, root); // a new folder: watch it too
        changedFile(file);
      });
    } catch {
      return; // removed meanwhile, or unreadable
    }
    watcher.on('error', () => {
      watcher.close(); // the folder was removed
      watchers.delete(key);
    });
    watchers.set(key, watcher);
    if (only !== undefined) return;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = join(dir, entry);
      if (isFolder(child)) watchFolder(child, root);
    }
  };

  for (const path of paths) {
    if (isFolder(path)) watchFolder(path, path);
    else watchFolder(dirname(path), dirname(path), basename(path));
  }
  return () => {
    closed = true;
    clearTimeout(timer);
    for (const w of watchers.values()) w.close();
    watchers.clear();
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
