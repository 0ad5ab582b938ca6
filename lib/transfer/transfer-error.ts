/**
 * An import or export that cannot be done as asked: an export that does not fit the model (each problem names the
 * entity and the field), a file that is no Strapi export, a wrong key, a store that is not empty. `problems` lists
 * every problem found (the message shows the first ones).
 *
 * @example
 * try { await importStrapiExport(router, 'export.tar') } catch (e) { if (e instanceof TransferError) console.error(e.problems) }
 */
export class TransferError extends Error {
  override name = 'TransferError';
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = []) {
    super(message);
    this.problems = problems;
  }
}
