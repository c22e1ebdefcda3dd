// The `/` of the reply box: which short code is being typed, and a canned response's content with
// its variables filled.

/** The `/word` just before the caret (at the start or after a space), or null. */
export function slashQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)\/([a-z0-9_-]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/**
 * `{{contact.name}}` and `{{agent.name}}` filled in; a variable without a value (an anonymous
 * visitor) or unknown stays as written, for the member to see and edit. Only the values' own keys are
 * variables: `{{constructor}}` read an object's inherited member and inserted its source.
 */
export function fillVariables(content: string, values: Record<string, string | null | undefined>): string {
  return content.replace(
    /\{\{\s*([\w.]+)\s*\}\}/g,
    (whole, name: string) => (Object.hasOwn(values, name) && values[name]) || whole,
  );
}
