/** Bad input, located precisely enough that a person can open the file and fix it. */
export class MalformedInputError extends Error {
  constructor(
    readonly file: string,
    readonly location: string,
    readonly reason: string,
  ) {
    super(`${file}: ${location}: ${reason}`);
    this.name = "MalformedInputError";
  }
}
