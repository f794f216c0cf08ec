/**
 * In stdio mode stdout carries protocol messages only: one stray `console.log`
 * in a tool would corrupt the stream. While a StdioTransport writes to
 * process.stdout, the console methods that print to stdout print to stderr.
 */

/** The console methods that write to stdout (warn, error and trace already use stderr). */
const STDOUT_METHODS = ['log', 'info', 'debug', 'dir', 'dirxml', 'table', 'group', 'groupCollapsed', 'groupEnd', 'count', 'countReset', 'time', 'timeLog', 'timeEnd'] as const;

type Method = (typeof STDOUT_METHODS)[number];

let routed: { users: number; saved: Pick<typeof console, Method> } | undefined;

/** Routes the console's stdout methods to stderr; the returned function undoes it (reference-counted). */
export function routeConsoleToStderr(): () => void {
  if (routed === undefined) {
    const toStderr = new console.Console({ stdout: process.stderr, stderr: process.stderr });
    const saved = {} as Record<Method, unknown>;
    const target = console as unknown as Record<Method, unknown>;
    for (const method of STDOUT_METHODS) {
      saved[method] = target[method];
      target[method] = (toStderr[method] as (...args: unknown[]) => void).bind(toStderr);
    }
    routed = { users: 0, saved: saved as Pick<typeof console, Method> };
  }
  routed.users++;
  let done = false;
  return () => {
    if (done || routed === undefined) return;
    done = true;
    if (--routed.users > 0) return;
    Object.assign(console, routed.saved);
    routed = undefined;
  };
}
