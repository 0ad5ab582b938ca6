/**
 * Memos kept by object identity (WeakMaps: an entry goes with its key) whose entries together stay within a byte
 * budget, whatever the requests ask for. The memos of one {@link MemoBudget} count what they add (an estimate of
 * the bytes each entry holds beyond what its key already holds) and live in two generations: when the current
 * one has been given half the budget, every memo's current generation becomes its previous one and the previous
 * one is dropped. An entry found in the previous generation moves back into the current one (and is counted
 * again), so what is in use survives the turns and what is not is dropped after two. At any time a memo of the
 * budget holds at most the bytes counted in two generations: the budget.
 *
 * Cheap on the hot path: a hit in the current generation is one WeakMap look-up, as a plain WeakMap memo.
 *
 * @example
 * const budget = new MemoBudget(16 * 1024 * 1024);
 * const copies = new BoundedMemo<Row, Row>(budget, (copy) => 64 + 16 * Object.keys(copy).length);
 * const copy = copies.get(row) ?? copies.set(row, { ...row });
 */
export class MemoBudget {
  private readonly memos: { turn(): void }[] = [];
  private counted = 0;
  private before = 0;
  /** How many times the generations turned (tests and benches). */
  turns = 0;

  constructor(readonly maxBytes: number) {}

  /** Counts `bytes` added to the current generation; turns the generations when it holds half the budget. */
  add(bytes: number): void {
    this.counted += bytes;
    if (this.counted > this.maxBytes / 2) this.turn();
  }

  /** The bytes counted in the current generation (at most half the budget: the previous one held at most as much). */
  get current(): number {
    return this.counted;
  }

  /** The bytes counted in both generations: an estimate of what the memos hold (at most the budget). */
  get held(): number {
    return this.counted + this.before;
  }

  /** Drops every entry of every memo of the budget (benches: what they held is then freed). */
  clear(): void {
    this.turn();
    this.turn();
  }

  /** @internal BoundedMemo registers itself. */
  register(memo: { turn(): void }): void {
    this.memos.push(memo);
  }

  private turn(): void {
    this.before = this.counted;
    this.counted = 0;
    this.turns++;
    for (const memo of this.memos) memo.turn();
  }
}

/**
 * A WeakMap memo within a {@link MemoBudget} (see the file's comment). `size` estimates an entry's bytes; an entry
 * that grows in place (a Map of variants per key) counts its growth with {@link BoundedMemo.grew}. Memos are made
 * once per module (the budget holds them).
 */
export class BoundedMemo<K extends object, V> {
  private now = new WeakMap<K, V>();
  private before = new WeakMap<K, V>();

  constructor(
    private readonly budget: MemoBudget,
    private readonly size: (value: V, key: K) => number,
  ) {
    budget.register(this);
  }

  /** The entry of `key`, from either generation (an entry of the previous one moves to the current one). */
  get(key: K): V | undefined {
    const found = this.now.get(key);
    if (found !== undefined) return found;
    const old = this.before.get(key);
    if (old === undefined) return undefined;
    this.before.delete(key);
    this.now.set(key, old);
    this.budget.add(this.size(old, key));
    return old;
  }

  /** Keeps `value` for `key` in the current generation and returns it. */
  set(key: K, value: V): V {
    this.before.delete(key);
    this.now.set(key, value);
    this.budget.add(this.size(value, key));
    return value;
  }

  /** Counts `bytes` more held by an entry already kept (a variant added to it). */
  grew(bytes: number): void {
    this.budget.add(bytes);
  }

  /** @internal The budget turns the generations. */
  turn(): void {
    this.before = this.now;
    this.now = new WeakMap();
  }
}
