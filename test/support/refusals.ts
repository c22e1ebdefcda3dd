import { expect } from "vitest";
import { expectError } from "../harness";

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
