/**
 * The part of an insert builder that makes it a plain insert when awaited as it is (`await db.insert(t).values(r)`):
 * Ponder's insert is a thenable, and so are the stores' that stand in for it (the write-behind store's, the entity
 * history's). The insert runs once, however often it is awaited; a subclass says what it does (`plain`) and adds
 * `onConflictDoNothing` and `onConflictDoUpdate`.
 */
export abstract class PlainInsert {
  private ran: Promise<unknown> | undefined;

  protected abstract plain(): Promise<unknown>;

  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, as Ponder's insert is.
  then(onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown): Promise<unknown> {
    return this.runOnce().then(onFulfilled, onRejected);
  }

  catch(onRejected?: (e: unknown) => unknown): Promise<unknown> {
    return this.runOnce().catch(onRejected);
  }

  finally(onFinally?: () => void): Promise<unknown> {
    return this.runOnce().finally(onFinally);
  }

  private runOnce(): Promise<unknown> {
    this.ran ??= this.plain();
    return this.ran;
  }
}

/**
 * `insert(table)` of a store whose inserts are `make(table, values)`: each table's builder is made once, so a
 * handler's insert allocates only its own object.
 */
export function insertBuilders<T, V, I>(make: (table: T, values: V) => I): (table: T) => { values(values: V): I } {
  const builders = new Map<T, { values(values: V): I }>();
  return (table) => {
    let builder = builders.get(table);
    if (builder === undefined) {
      builder = { values: (values: V) => make(table, values) };
      builders.set(table, builder);
    }
    return builder;
  };
}
