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
