// npm 12 runs a dependency's install script only when package.json's `allowScripts` names it, and npm 11 warns about
// each one it does not name (docs/decisions.md, "Install scripts"). The `node` package's script is what gives every
// npm script Node 24; without it a fresh clone's `npm run dev` would start on the machine's Node 20.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./support/checkout.mjs";

const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

describe("install scripts", () => {
  it("every locked package with an install script is allowed or refused in package.json, by name", () => {
    const { allowScripts = {} } = readJson("package.json");
    const { packages } = readJson("package-lock.json");
    const withScripts = new Set(
      Object.entries(packages)
        .filter(([where, pkg]) => where !== "" && pkg.hasInstallScript)
        .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length)),
    );
    expect([...withScripts].filter((name) => !(name in allowScripts))).toEqual([]);
    // A name left after its package went would allow a script nobody reviewed, should it come back.
    expect(Object.keys(allowScripts).filter((name) => !withScripts.has(name))).toEqual([]);
    expect(allowScripts).toMatchObject({ node: true, workerd: true, esbuild: true });
  });
});
