/**
 * A file that cannot be read as rows: not a workbook, a workbook without a sheet. Its own module so
 * that the import dialog can tell it apart without loading the reader's chunk.
 */
export class UnreadableFile extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "UnreadableFile";
  }
}
