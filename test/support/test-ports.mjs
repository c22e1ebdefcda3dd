// Ports of the Node suite's files (vitest.node.config.mjs), which run several at once: each vitest
// worker (VITEST_POOL_ID 1, 2, ...) keeps to ports of its own, so two files never start servers on
// the same port. A port given in the environment (CONSOLE_TEST_PORT, BROWSER_TEST_PORT, ...: a
// range of one's own on a shared machine) is the first worker's; worker n uses it + STRIDE·(n−1),
// so the STRIDE ports above each given one (and above its +1000 inspector port) should be free too.

/** Distance between two workers' ports given in the environment. */
export const STRIDE = 50;

/** This worker's slot: 0 for the first (and for a run outside vitest's pool). */
export const slot = () => Math.max(0, (Number(process.env.VITEST_POOL_ID) || 1) - 1);

/**
 * The port of the environment variable `name` (moved by this worker's slot), else one of this
 * worker's own part of the default range: `size` ports from `from` + slot·size, drawn at random
 * (so that a run beside another one on the defaults rarely collides).
 */
export function testPort(name, { from, size }) {
  const given = Number(process.env[name]);
  if (given) return given + slot() * STRIDE;
  return from + slot() * size + Math.floor(Math.random() * size);
}

/** An inspector port given in the environment (moved by this worker's slot); undefined for the default (the server's
 * port + 1000). */
export function givenPort(name) {
  const given = Number(process.env[name]);
  return given ? given + slot() * STRIDE : undefined;
}
