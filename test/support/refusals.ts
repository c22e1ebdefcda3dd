import { expectError } from "../harness";

// The two refusals nearly every route test asserts, named: the same checks as expectError (status,
// code, the error body's shape and X-Request-Id).

/** The contract's 403: the actor lacks the permission the route names. */
export const expectDenied = (res: Response) => expectError(res, 403, "permission_denied");

/** The contract's 404: no such record in the actor's organization (another organization's is not found either). */
export const expectNotFound = (res: Response) => expectError(res, 404, "not_found");
