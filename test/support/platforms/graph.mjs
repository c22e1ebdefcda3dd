// Not written yet: answers 404 to everything.
/** @type {import("./stand-in.mjs").Platform} */
export const platform = { key: () => null, route: () => ({ status: 404, body: { error: "no stand-in yet" } }) };
