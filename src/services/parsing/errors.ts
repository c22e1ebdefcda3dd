/**
 * Why a file could not be turned into text. Messages are shown to users as the reason an
 * ingestion failed, so they say what is wrong with the file, not where the code gave up.
 */
export class ParseError extends Error {
  override name = "ParseError";
}

/** The file's type is not one the knowledge base can read. */
export class UnsupportedFileType extends ParseError {
  override name = "UnsupportedFileType";
}
