/** A recipe file that cannot be read. The store reports it and never overwrites the file. */
export class RecipeFileError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where the problem is. */
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "RecipeFileError";
  }
}
