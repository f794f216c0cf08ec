/**
 * Runs a match pattern (uri-template-plan.ts) over a URI in O(URI length ×
 * pattern size): a Pike VM, i.e. every alternative advances in lock-step, one
 * character at a time, and two alternatives that reach the same instruction
 * at the same position merge (the earlier, preferred one wins), so no input
 * can make the work blow up the way a backtracking regular expression does.
 * Preference order is kept, so the reading found is the one a backtracking
 * matcher would find.
 *
 * Atomic captures are compiled to deterministic code: every choice inside is
 * guarded by a bounded look-ahead that lets the second option run only where
 * the first one cannot, so the body has a single reading to follow.
 */
import type { PatternNode } from './uri-template-plan.js';

const CHAR = 0;
const RUN = 1;
const SPLIT = 2;
const JUMP = 3;
const SAVE = 4;
const GUARD = 5;
const MATCH = 6;
/** RUN, repeated: consumes a run code unit and stays here, or (less preferred) goes on to the next instruction. */
const STAR = 7;

interface Instruction {
  op: number;
  /** CHAR: the code unit; SPLIT/JUMP: the (preferred) target; SAVE: the slot. */
  a: number;
  /** SPLIT: the other target. */
  b: number;
  /** RUN/STAR: code units (< 128) that end the run. */
  excluded: Uint8Array | undefined;
  /** GUARD: whether execution may go on at this position. */
  guard: ((uri: string, at: number) => boolean) | undefined;
}

export interface MatchProgram {
  readonly instructions: readonly Instruction[];
  readonly slots: number;
  /** Literal text every match starts with; the program runs from the instruction after it. */
  readonly prefix: string;
  /** Literal text every match ends with (checked up front, to reject most URIs at once). */
  readonly suffix: string;
}

/** One step of a look-ahead: one of some strings, or one code unit of a run. */
type Step = { readonly options: readonly string[] } | { readonly excluded: Uint8Array };

const table = (chars: string): Uint8Array => {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) {
    const c = chars.charCodeAt(i);
    if (c >= 128) throw new Error('mcpkit: URI template runs only exclude ASCII characters');
    t[c] = 1;
  }
  return t;
};

const inRun = (excluded: Uint8Array, c: number): boolean => c >= 128 || excluded[c] === 0;

const canBeEmpty = (node: PatternNode): boolean => (node.kind === 'run' ? node.min === 0 : node.kind === 'optional');

/** The steps every match of `nodes` starts with: up to the first part that may be empty. */
function mandatory(nodes: readonly PatternNode[]): Step[] {
  const steps: Step[] = [];
  for (const node of nodes) {
    if (node.kind === 'literal') steps.push({ options: node.options });
    else if (node.kind === 'run' && node.min === 1) return [...steps, { excluded: table(node.exclude) }];
    else if (node.kind === 'capture') steps.push(...mandatory(node.body));
    else return steps;
  }
  return steps;
}

function stepsMatch(steps: readonly Step[], i: number, uri: string, at: number): boolean {
  const step = steps[i];
  if (step === undefined) return true;
  if ('excluded' in step) return at < uri.length && inRun(step.excluded, uri.charCodeAt(at)) && stepsMatch(steps, i + 1, uri, at + 1);
  return step.options.some((o) => uri.startsWith(o, at) && stepsMatch(steps, i + 1, uri, at + o.length));
}

/**
 * Inside an atomic body, once a part that may be empty is passed, nothing
 * later may be required: then a choice is decided by looking at the parts up
 * to that point, and the guards below are exact.
 */
function assertGuardable(nodes: readonly PatternNode[]): void {
  let optionalSeen = false;
  for (const node of nodes) {
    if (optionalSeen && !canBeEmpty(node)) throw new Error('mcpkit: unsupported atomic URI-template pattern');
    if (canBeEmpty(node)) optionalSeen = true;
    if (node.kind === 'optional' || node.kind === 'capture') assertGuardable(node.body);
  }
}

export function compileProgram(nodes: readonly PatternNode[]): MatchProgram {
  const code: Instruction[] = [];
  const emit = (op: number, a = 0, b = 0, excluded?: Uint8Array, guard?: Instruction['guard']): Instruction => {
    const instruction: Instruction = { op, a, b, excluded, guard };
    code.push(instruction);
    return instruction;
  };
  let slots = 0;

  const sequence = (seq: readonly PatternNode[], atomic: boolean): void => {
    seq.forEach((node, i) => one(node, seq.slice(i + 1), atomic));
  };
  const one = (node: PatternNode, rest: readonly PatternNode[], atomic: boolean): void => {
    switch (node.kind) {
      case 'literal': {
        const jumps: Instruction[] = [];
        node.options.forEach((option, k) => {
          const last = k === node.options.length - 1;
          const split = last ? undefined : emit(SPLIT, code.length + 1);
          if (atomic && k > 0) {
            // This option only where no earlier one leads on.
            const earlier = node.options.slice(0, k);
            const after = mandatory(rest);
            emit(GUARD, 0, 0, undefined, (uri, at) => !stepsMatch([{ options: earlier }, ...after], 0, uri, at));
          }
          for (let c = 0; c < option.length; c++) emit(CHAR, option.charCodeAt(c));
          if (!last) jumps.push(emit(JUMP));
          if (split) split.b = code.length;
        });
        for (const jump of jumps) jump.a = code.length;
        return;
      }
      case 'run': {
        const excluded = table(node.exclude);
        if (node.min === 1) emit(RUN, 0, 0, excluded);
        emit(STAR, 0, 0, excluded);
        if (atomic) emit(GUARD, 0, 0, undefined, (uri, at) => at >= uri.length || !inRun(excluded, uri.charCodeAt(at)));
        return;
      }
      case 'optional': {
        const split = emit(SPLIT, code.length + 1);
        sequence(node.body, atomic);
        if (!atomic) {
          split.b = code.length;
          return;
        }
        const jump = emit(JUMP);
        split.b = code.length;
        const steps = mandatory(node.body);
        emit(GUARD, 0, 0, undefined, (uri, at) => !stepsMatch(steps, 0, uri, at));
        jump.a = code.length;
        return;
      }
      case 'capture': {
        const slot = slots;
        slots += 2;
        if (node.atomic) assertGuardable(node.body);
        emit(SAVE, slot);
        sequence(node.body, atomic || node.atomic);
        emit(SAVE, slot + 1);
      }
    }
  };
  sequence(nodes, false);
  emit(MATCH);
  const first = nodes[0];
  const last = nodes.length > 1 ? nodes[nodes.length - 1] : undefined;
  const fixed = (node: PatternNode | undefined): string => (node?.kind === 'literal' && node.options.length === 1 ? node.options[0]! : '');
  return { instructions: code, slots, prefix: fixed(first), suffix: fixed(last) };
}

/** Work counter for tests: instructions visited, summed over every match run with it. */
export interface MatchWork {
  steps: number;
}

/**
 * The saves a thread made, newest first: a shared tail, so following a SAVE
 * costs one small node, not a copy of every slot.
 */
interface Saved {
  readonly slot: number;
  readonly at: number;
  readonly previous: Saved | undefined;
}

/** Alternatives alive at one position, in preference order. */
class Threads {
  readonly pcs: Int32Array;
  readonly captures: (Saved | undefined)[] = [];
  size = 0;
  constructor(length: number) {
    this.pcs = new Int32Array(length);
  }
}

/** Buffers one run needs, kept with the program (matching is synchronous, so runs never overlap). */
interface Scratch {
  readonly seen: Int32Array;
  current: Threads;
  next: Threads;
  readonly pcStack: number[];
  readonly captureStack: (Saved | undefined)[];
}
const scratches = new WeakMap<MatchProgram, Scratch>();

function scratchFor(program: MatchProgram): Scratch {
  let scratch = scratches.get(program);
  if (scratch === undefined) {
    const n = program.instructions.length;
    scratch = { seen: new Int32Array(n), current: new Threads(n), next: new Threads(n), pcStack: [], captureStack: [] };
    scratches.set(program, scratch);
  }
  return scratch;
}

/**
 * The capture slots (start, end per capture; -1 when unset) of the preferred
 * reading of `uri` as a whole, or undefined when there is none.
 */
export function runProgram(program: MatchProgram, uri: string, work?: MatchWork): number[] | undefined {
  const code = program.instructions;
  const scratch = scratchFor(program);
  const { seen, pcStack, captureStack } = scratch;
  seen.fill(-1);
  let { current, next } = scratch;
  let steps = 0;

  // Follows jumps, splits, saves and guards from pc; queues what consumes input (or matches).
  const add = (list: Threads, generation: number, startPc: number, startCaptures: Saved | undefined, at: number): void => {
    pcStack.push(startPc);
    captureStack.push(startCaptures);
    while (pcStack.length > 0) {
      const pc = pcStack.pop()!;
      const captures = captureStack.pop()!;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      steps++;
      const instruction = code[pc]!;
      switch (instruction.op) {
        case JUMP:
          pcStack.push(instruction.a);
          captureStack.push(captures);
          break;
        case SPLIT:
          // Pushed last, popped first: the preferred branch claims instructions before the other.
          pcStack.push(instruction.b, instruction.a);
          captureStack.push(captures, captures);
          break;
        case SAVE: {
          pcStack.push(pc + 1);
          captureStack.push({ slot: instruction.a, at, previous: captures });
          break;
        }
        case GUARD:
          if (instruction.guard!(uri, at)) {
            pcStack.push(pc + 1);
            captureStack.push(captures);
          }
          break;
        case STAR:
          list.pcs[list.size] = pc;
          list.captures[list.size] = captures;
          list.size++;
          pcStack.push(pc + 1);
          captureStack.push(captures);
          break;
        default:
          list.pcs[list.size] = pc;
          list.captures[list.size] = captures;
          list.size++;
      }
    }
  };

  const { prefix, suffix } = program;
  if (!uri.startsWith(prefix) || !uri.endsWith(suffix) || uri.length < prefix.length + suffix.length) return undefined;
  // The prefix is one CHAR instruction per code unit, from the first: step over it.
  current.size = 0;
  add(current, prefix.length, prefix.length, undefined, prefix.length);
  let matched = false;
  let saved: Saved | undefined;
  for (let at = prefix.length; current.size > 0; at++) {
    if (at === uri.length) {
      for (let t = 0; t < current.size && !matched; t++) {
        steps++;
        if (code[current.pcs[t]!]!.op === MATCH) {
          matched = true;
          saved = current.captures[t];
        }
      }
      break;
    }
    const c = uri.charCodeAt(at);
    next.size = 0;
    for (let t = 0; t < current.size; t++) {
      steps++;
      const pc = current.pcs[t]!;
      const instruction = code[pc]!;
      const op = instruction.op;
      if (op === CHAR ? c === instruction.a : op !== MATCH && inRun(instruction.excluded!, c)) {
        add(next, at + 1, op === STAR ? pc : pc + 1, current.captures[t], at + 1);
      }
    }
    [current, next] = [next, current];
  }
  // Drop references to this URI's captures.
  scratch.current.captures.length = 0;
  scratch.next.captures.length = 0;
  if (work) work.steps += steps;
  if (!matched) return undefined;
  const slots = new Array<number>(program.slots).fill(-1);
  // Newest first: each slot takes the last value saved on the matching path.
  for (let node = saved; node !== undefined; node = node.previous) if (slots[node.slot] === -1) slots[node.slot] = node.at;
  return slots;
}
