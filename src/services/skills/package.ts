import { unzipSync } from "fflate";
import { parse as parseYaml } from "yaml";
import { ownValue } from "../../lib/json";
import { nameText } from "../../lib/openapi";
import { hasVisibleCharacter } from "../../lib/text";

/** Limits of a skill package (against zip bombs and oversized uploads). */
export const SKILL_LIMITS = {
  /** The .zip itself. */
  zipBytes: 10 * 1024 * 1024,
  /** Entries in the archive (folders included). */
  entries: 200,
  /** Expanded size of all files together, as the archive declares it (fflate inflates into buffers of that size, never
   * more). */
  expandedBytes: 50 * 1024 * 1024,
  /** One file, expanded. */
  fileBytes: 10 * 1024 * 1024,
  /** SKILL.md, expanded. */
  skillMdBytes: 512 * 1024,
  /** Path length inside the package. */
  pathChars: 300,
  /** The instructions (SKILL.md's body), in characters: what the skill's PUT takes, as the console sends them back
   * whole with every edit. */
  instructionsChars: 200_000,
} as const;

/** A skill's name as the API takes every name (trimmed, composed, one line): the skill's PUT takes it back. */
const SkillName = nameText(200);

export class SkillPackageError extends Error {}

export interface SkillResourceFile {
  path: string;
  bytes: Uint8Array;
  mimeType: string;
}

export interface SkillPackage {
  name: string;
  description: string;
  whenToUse: string;
  instructions: string;
  resources: SkillResourceFile[];
}

const MIME: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  csv: "text/csv",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  js: "text/javascript",
  ts: "text/plain",
  sh: "text/x-shellscript",
  html: "text/html",
  xml: "application/xml",
  sql: "application/sql",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/** A resource's type by its extension (own keys only: a package's "x.constructor" is no type). */
export const mimeTypeOf = (path: string) =>
  ownValue(MIME, path.split(".").pop()?.toLowerCase() ?? "") ?? "application/octet-stream";

/**
 * A path inside the package as stored, or why it is refused: no absolute paths, drive letters,
 * backslashes, `..` or `.` segments, control characters. Folder entries (ending in `/`) are null.
 */
export function packagePath(name: string): string | null {
  if (name.endsWith("/")) return null;
  if (name.length > SKILL_LIMITS.pathChars)
    throw new SkillPackageError(`A path in the archive is longer than ${SKILL_LIMITS.pathChars} characters.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(name))
    throw new SkillPackageError(`Unsafe path in the archive: ${JSON.stringify(name.slice(0, 80))}.`);
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name))
    throw new SkillPackageError(`Absolute path in the archive: ${JSON.stringify(name.slice(0, 80))}.`);
  const segments = name.split("/");
  if (segments.some((s) => s === ".." || s === "." || s === ""))
    throw new SkillPackageError(`Path traversal in the archive: ${JSON.stringify(name.slice(0, 80))}.`);
  return name;
}

/** `---\n<yaml>\n---\n<markdown>`: the front matter (an object) and the body. */
export function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!m) throw new SkillPackageError("SKILL.md must start with YAML front matter between --- lines.");
  let data: unknown;
  try {
    // Aliases are capped: a YAML "billion laughs" cannot expand.
    data = parseYaml(m[1], { maxAliasCount: 50, prettyErrors: false });
  } catch (err) {
    throw new SkillPackageError(
      `The front matter of SKILL.md is not valid YAML: ${String((err as Error).message)
        .split("\n")[0]
        .slice(0, 200)}`,
    );
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new SkillPackageError("The front matter of SKILL.md must be a YAML mapping.");
  return { data: data as Record<string, unknown>, body: m[2] };
}

/** What macOS writes into archives it makes: AppleDouble files under __MACOSX/, Finder's .DS_Store. */
const MAC_FILES = /(^|\/)(__MACOSX|\.DS_Store)(\/|$)/;

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

/**
 * Reads a skill package: a zip with `SKILL.md` (at the root, or in the single top folder) and
 * resource files. Sizes are checked against the archive's declarations before anything is
 * inflated, and fflate never inflates past a declared size.
 */
export function readSkillPackage(zip: Uint8Array): SkillPackage {
  if (zip.byteLength > SKILL_LIMITS.zipBytes)
    throw new SkillPackageError(`The archive is larger than ${SKILL_LIMITS.zipBytes} bytes.`);
  let entries = 0;
  let expanded = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter(file) {
        entries++;
        if (entries > SKILL_LIMITS.entries)
          throw new SkillPackageError(`The archive holds more than ${SKILL_LIMITS.entries} entries.`);
        const path = packagePath(file.name);
        // Finder's "Compress" adds __MACOSX/ beside the folder and .DS_Store inside it: not the package's, and left
        // out before its top folder is looked for.
        if (path === null || MAC_FILES.test(path)) return false;
        if (file.originalSize > SKILL_LIMITS.fileBytes)
          throw new SkillPackageError(`"${path.slice(0, 80)}" expands to more than ${SKILL_LIMITS.fileBytes} bytes.`);
        expanded += file.originalSize;
        if (expanded > SKILL_LIMITS.expandedBytes)
          throw new SkillPackageError(`The archive expands to more than ${SKILL_LIMITS.expandedBytes} bytes.`);
        if (file.compression !== 0 && file.compression !== 8)
          throw new SkillPackageError(`"${path.slice(0, 80)}" uses an unsupported compression method.`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof SkillPackageError) throw err;
    throw new SkillPackageError(`Not a valid zip archive: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
  }
  const paths = Object.keys(files);
  // Packages zipped with their folder (`my-skill/SKILL.md`) are read from inside it.
  const tops = new Set(paths.map((p) => (p.includes("/") ? p.split("/")[0] : "")));
  const prefix = !paths.includes("SKILL.md") && tops.size === 1 && !tops.has("") ? `${[...tops][0]}/` : "";
  const skillMd = files[`${prefix}SKILL.md`];
  if (!skillMd) throw new SkillPackageError("The archive has no SKILL.md at its root.");
  if (skillMd.byteLength > SKILL_LIMITS.skillMdBytes)
    throw new SkillPackageError(`SKILL.md is larger than ${SKILL_LIMITS.skillMdBytes} bytes.`);
  let markdown: string;
  try {
    markdown = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(skillMd);
  } catch {
    throw new SkillPackageError("SKILL.md is not UTF-8 text.");
  }
  const { data, body } = splitFrontMatter(markdown);
  // In Unicode's composed form, as every name the API takes (lib/openapi.ts `nameText`): one name to the unique index.
  const name = text(data.name).normalize("NFC");
  const description = text(data.description);
  const whenToUse = text(data.when_to_use ?? data.whenToUse ?? data["when-to-use"]);
  // A name of only zero-width characters is no name, as in the API (lib/openapi.ts `nameText`).
  if (!hasVisibleCharacter(name)) throw new SkillPackageError("The front matter of SKILL.md has no name.");
  if (!description) throw new SkillPackageError("The front matter of SKILL.md has no description.");
  if (name.length > 200) throw new SkillPackageError("The skill's name is longer than 200 characters.");
  const named = SkillName.safeParse(name);
  if (!named.success)
    throw new SkillPackageError(`The skill's name in SKILL.md: ${named.error.issues[0]?.message ?? "Not a name."}`);
  if (description.length > 10_000)
    throw new SkillPackageError("The skill's description is longer than 10,000 characters.");
  const instructions = body.trim();
  if (instructions.length > SKILL_LIMITS.instructionsChars)
    throw new SkillPackageError(
      `The instructions (SKILL.md's body) are longer than ${SKILL_LIMITS.instructionsChars} characters: a skill ` +
        "takes no more when it is saved.",
    );
  const resources = paths
    .filter((p) => p !== `${prefix}SKILL.md`)
    .map((p) => ({ path: p.slice(prefix.length), bytes: files[p], mimeType: mimeTypeOf(p) }))
    .filter((r) => r.path);
  return { name, description, whenToUse: whenToUse.slice(0, 2000), instructions, resources };
}
