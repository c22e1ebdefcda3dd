import { expect } from "vitest";
import type { Permission } from "../../src/services/permissions";
import { expectError, NO_SUCH_ID, seedMember, type Actor } from "../harness";

// The refusals nearly every route test asserts, named: the same checks as expectError (status,
// code, the error body's shape and X-Request-Id).

/** The contract's 403: the actor lacks the permission the route names. */
export const expectDenied = (res: Response) => expectError(res, 403, "permission_denied");

/** The contract's 404: no such record in the actor's organization (another organization's is not found either). */
export const expectNotFound = (res: Response) => expectError(res, 404, "not_found");

/** The contract's 400 for input it refuses: `invalid`, its `errors` naming exactly `fields` (in the answer's order). */
export async function expectInvalid(res: Response, ...fields: string[]) {
  const body = await expectError(res, 400, "invalid");
  expect(Object.keys(body.errors!)).toEqual(fields);
  return body;
}

/**
 * 404 for `actor` asking `collection` ("/contacts/") for another organization's `theirs`, an unknown id and malformed
 * ones (a number, a word): a malformed id is not found like any other, never a 400 or a 500.
 */
export async function expectUnknownIds(actor: Actor, collection: string, theirs: string) {
  for (const id of [theirs, NO_SUCH_ID, "123", "not-a-uuid"])
    await expectNotFound(await actor.fetch("GET", `${collection}${id}/`));
}

/** A GET of `path`: 403 for a member of `owner` holding `denied`, 200 for one holding any one of `readers`. */
export async function expectReadableWith(
  owner: Actor,
  path: string,
  { denied, readers }: { denied: Permission[]; readers: Permission[] },
) {
  await expectDenied(await (await seedMember(owner, denied)).fetch("GET", path));
  for (const permission of readers)
    expect((await (await seedMember(owner, [permission])).fetch("GET", path)).status, permission).toBe(200);
}
