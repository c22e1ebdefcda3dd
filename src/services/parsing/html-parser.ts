import { type Handler, Parser, type ParserOptions } from "htmlparser2";

/**
 * htmlparser2's parser with its stacks of open elements (and of foreign contexts: `<svg>`, `<math>`) made cheap. The
 * library keeps each as an array with the innermost element first: every open tag is an `unshift`, which moves all
 * the elements already open, and an end tag of an element not open (`</span>` among `<div>`s) and every `<form>`
 * read the whole stack. n elements nested cost O(n^2): 1 MiB of unclosed `<div>a` took 43 s. Here each step costs
 * O(1) (a close pops what it closes), and the library runs its own steps on these stacks, so what it reports is what
 * it reported before, for every document. If a later version of the library names or shapes its stacks otherwise,
 * they are left as they are: slow on deep nesting (the timed tests fail), never wrong.
 */
export class LinearParser extends Parser {
  constructor(cbs: Partial<Handler>, options: ParserOptions) {
    super(cbs, options);
    const own = this.internals();
    if (Array.isArray(own.stack) && own.stack.length === 0 && Array.isArray(own.foreignContext)) {
      own.stack = new TopFirstStack<string>([]);
      own.foreignContext = new TopFirstStack<unknown>(own.foreignContext);
    }
  }

  onend(): void {
    // The library closes what is still open by reading `stack[index]`, innermost first: an array again, at the end.
    const own = this.internals();
    if (own.stack instanceof TopFirstStack) own.stack = own.stack.toArray();
    super.onend();
  }

  // The fields are private to the library's types, not to its objects.
  private internals(): { stack: unknown; foreignContext: unknown } {
    return this as unknown as { stack: unknown; foreignContext: unknown };
  }
}

/**
 * A stack read as the library reads its arrays (`[0]` the innermost, `unshift` to push, `shift` to pop, `indexOf`
 * counting from the innermost), stored outermost first so that pushing and popping move nothing, with a count per
 * item so that `includes` and an `indexOf` of an item not there answer at once. `[0]` is a plain field kept up to date
 * (an indexed getter is a slow lookup in V8, and the library reads it at every tag).
 */
class TopFirstStack<T> {
  0: T | undefined = undefined;
  private readonly items: T[] = []; // outermost first
  private readonly counts = new Map<T, number>();

  constructor(topFirst: readonly T[]) {
    for (let index = topFirst.length - 1; index >= 0; index--) this.unshift(topFirst[index]);
  }

  get length(): number {
    return this.items.length;
  }

  /** The library only empties its stacks (`length = 0`, in `reset()`). */
  set length(length: number) {
    if (length !== 0) throw new RangeError("A stack of open elements can only be emptied.");
    this.items.length = 0;
    this.counts.clear();
    this[0] = undefined;
  }

  unshift(item: T): number {
    this.items.push(item);
    this.counts.set(item, (this.counts.get(item) ?? 0) + 1);
    this[0] = item;
    return this.items.length;
  }

  shift(): T | undefined {
    const item = this.items.pop();
    if (item !== undefined) this.counts.set(item, (this.counts.get(item) ?? 1) - 1);
    this[0] = this.items[this.items.length - 1];
    return item;
  }

  includes(item: T): boolean {
    return (this.counts.get(item) ?? 0) > 0;
  }

  /** Reads only down to the innermost `item`, and the library then pops all it read. */
  indexOf(item: T): number {
    if (!this.includes(item)) return -1;
    const top = this.items.length - 1;
    let index = top;
    while (this.items[index] !== item) index--;
    return top - index;
  }

  toArray(): T[] {
    return this.items.slice().reverse();
  }
}
