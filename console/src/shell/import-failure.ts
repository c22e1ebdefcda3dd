/**
 * Whether a dynamic import failed to fetch its chunk (offline, or a deploy replaced it), rather than
 * the module throwing as it ran (a bug, which must propagate). Browsers say so only in a TypeError's
 * message: Chromium "Failed to fetch dynamically imported module", Firefox "error loading
 * dynamically imported module", Safari "Importing a module script failed".
 */
export const isImportFailure = (err: unknown) =>
  err instanceof TypeError && /dynamically imported module|importing a module script failed/i.test(err.message);
