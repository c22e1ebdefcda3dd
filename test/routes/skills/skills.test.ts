import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { skills, skillTools } from "../../../src/db/schema";
import { SKILL_LIMITS } from "../../../src/services/skills/package";
import { call, db, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, seedStaff, unique } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { fileExpenseTool, skillMd, uploadForm, uploadSkill, zip } from "./support";
import { bodyOf } from "../../support/api";
import { createTool } from "../../fixtures/tools";

const countSkills = async (organizationId: string) =>
  (await db().select({ id: skills.id }).from(skills).where(eq(skills.organizationId, organizationId))).length;

describe("POST /skills/upload/", () => {
  it("stores the package, its resources and attached tools, under both prefixes", async () => {
    const owner = await seedOwner();
    const toolId = await fileExpenseTool(owner);
    const name = unique("expense");
    const created = await uploadSkill(owner, name, {
      fields: { attached_tool_ids: toolId },
      files: { "scripts/check.py": "print(1)" },
    });
    expect(created).toMatchObject({
      name,
      description: "Files an expense report",
      message: "Skill uploaded with 2 resources.",
    });
    for (const prefix of PREFIXES) {
      const res = await owner.fetch("GET", `/skills/${created.id}/`, undefined, { prefix });
      expect(res.status).toBe(200);
      const skill = await bodyOf<"GET /skills/{id}/">(res);
      expect(skill).toMatchObject({
        name,
        whenToUse: "When the user asks to file expenses",
        source: "upload",
        skillPackageName: "skill.zip",
        canUpdate: true,
        lastUsedAt: null,
      });
      expect(skill.instructions).toContain("1. Ask for the receipt.");
      expect(skill.resources.map((r) => [r.path, r.mimeType])).toEqual([
        ["reference/policy.md", "text/markdown"],
        ["scripts/check.py", "text/x-python"],
      ]);
      expect(skill.attachedTools).toEqual([
        expect.objectContaining({ id: toolId, name: "file_expense", toolType: "function" }),
      ]);
      const stored = await env.FILES.get(skill.resources[0].filePath);
      expect(await stored!.text()).toBe("Meals up to 50 EUR a day.");
      expect(await env.FILES.head(skill.skillPackagePath!)).not.toBeNull();
    }
    const list = await owner.fetch("GET", `/skills/?search=${name}`, undefined, { prefix: "/api" });
    const page = await bodyOf<"GET /skills/">(list);
    expect(page.count).toBe(1);
    expect(page.results[0].resources).toEqual(["reference/policy.md", "scripts/check.py"]);
  });

  it("reads a package zipped with its folder and a JSON array of tool ids", async () => {
    const owner = await seedOwner();
    const bytes = zip({
      "my-skill/SKILL.md": skillMd("name: folder-skill\ndescription: In a folder"),
      "my-skill/a.txt": "A",
    });
    const res = await owner.fetch("POST", "/skills/upload/", uploadForm(bytes, { attached_tool_ids: "[]" }));
    expect(res.status, await res.clone().text()).toBe(201);
    const detail = await bodyOf<"GET /skills/{id}/">(
      await owner.fetch("GET", `/skills/${(await bodyOf<"POST /skills/upload/">(res)).id}/`),
    );
    expect(detail.resources.map((r) => r.path)).toEqual(["a.txt"]);
  });

  it("reads a package zipped with its folder by macOS: Finder's __MACOSX/ and .DS_Store are left out", async () => {
    const owner = await seedOwner();
    const name = unique("mac-skill");
    // What Finder's "Compress" makes of a folder `my-skill`: the folder, AppleDouble files under __MACOSX/.
    const bytes = zip({
      "my-skill/SKILL.md": skillMd(`name: ${name}\ndescription: Zipped on a Mac`),
      "my-skill/reference/a.md": "A",
      "my-skill/.DS_Store": new Uint8Array([0, 0, 0, 1]),
      "__MACOSX/my-skill/._SKILL.md": new Uint8Array([0, 5, 22, 7]),
      "__MACOSX/my-skill/reference/._a.md": new Uint8Array([0, 5, 22, 7]),
    });
    const res = await owner.fetch("POST", "/skills/upload/", uploadForm(bytes));
    expect(res.status, await res.clone().text()).toBe(201);
    const detail = await bodyOf<"GET /skills/{id}/">(
      await owner.fetch("GET", `/skills/${(await bodyOf<"POST /skills/upload/">(res)).id}/`),
    );
    expect(detail).toMatchObject({ name, description: "Zipped on a Mac" });
    expect(detail.resources.map((r) => r.path)).toEqual(["reference/a.md"]);
  });

  it("refuses hostile and malformed packages with 400 {detail} and stores nothing", async () => {
    const owner = await seedOwner();
    const ok = skillMd("name: x\ndescription: y");
    const cases: [string, Uint8Array, RegExp][] = [
      ["not a zip", new TextEncoder().encode("hello, not a zip at all"), /zip/i],
      ["path traversal", zip({ "SKILL.md": ok, "../evil.txt": "x" }), /traversal/i],
      ["nested traversal", zip({ "SKILL.md": ok, "a/../../evil.txt": "x" }), /traversal/i],
      ["absolute path", zip({ "SKILL.md": ok, "/etc/passwd": "x" }), /absolute/i],
      ["backslashes", zip({ "SKILL.md": ok, "..\\evil.txt": "x" }), /unsafe/i],
      [
        "zip bomb (one file)",
        zip({ "SKILL.md": ok, "bomb.bin": new Uint8Array(11 * 1024 * 1024) }),
        /expands to more/i,
      ],
      [
        "zip bomb (total)",
        zip({
          "SKILL.md": ok,
          ...Object.fromEntries([0, 1, 2, 3, 4, 5].map((i) => [`b${i}.bin`, new Uint8Array(9 * 1024 * 1024)])),
        }),
        /expands to more/i,
      ],
      [
        "too many files",
        zip({ "SKILL.md": ok, ...Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}.txt`, "x"])) }),
        /more than 200 entries/i,
      ],
      ["no SKILL.md", zip({ "README.md": ok }), /no SKILL\.md/i],
      ["no front matter", zip({ "SKILL.md": "# Just markdown" }), /front matter/i],
      ["bad YAML", zip({ "SKILL.md": skillMd("name: [unclosed\ndescription: y") }), /YAML/i],
      [
        "YAML alias bomb",
        zip({
          "SKILL.md": skillMd(
            `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c ` +
              `[*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nname: x\ndescription: y`,
          ),
        }),
        /YAML|alias/i,
      ],
      ["no name", zip({ "SKILL.md": skillMd("description: y") }), /no name/i],
      ["no description", zip({ "SKILL.md": skillMd("name: x") }), /no description/i],
    ];
    for (const [label, bytes, message] of cases) {
      const body = await expectError(await owner.fetch("POST", "/skills/upload/", uploadForm(bytes)), 400, "invalid");
      expect(body.detail, label).toMatch(message);
    }
    const unknownTool = await owner.fetch(
      "POST",
      "/skills/upload/",
      uploadForm(zip({ "SKILL.md": ok }), { attachedToolIds: NO_SUCH_ID }),
    );
    expect((await expectError(unknownTool, 400, "invalid")).detail).toMatch(/Unknown tool/);
    await expectError(
      await owner.fetch(
        "POST",
        "/skills/upload/",
        uploadForm(zip({ "SKILL.md": ok }), { attachedToolIds: "not-a-uuid" }),
      ),
      400,
      "invalid",
    );
    // A form's list of groups is refused at its field, with what is wrong with it.
    for (const [groups, message] of [
      ["[1", "A JSON array of group ids, or ids separated by commas."],
      ["not-a-uuid", "Each id must be a group's uuid."],
      [Array.from({ length: 51 }, () => NO_SUCH_ID).join(","), "At most 50 groups."],
    ]) {
      const refused = await owner.fetch("POST", "/skills/upload/", uploadForm(zip({ "SKILL.md": ok }), { groups }));
      expect((await expectError(refused, 400, "invalid")).errors?.groups).toEqual([message]);
    }
    const noFile = new FormData();
    noFile.append("attachedToolIds", "");
    await expectError(await owner.fetch("POST", "/skills/upload/", noFile), 400, "invalid");
    noFile.append("file", "text, not a file");
    const notAFile = await expectError(await owner.fetch("POST", "/skills/upload/", noFile), 400, "invalid");
    expect(notAFile.errors).toEqual({ file: ["Required: the skill package (a .zip file part)."] });
    // A byte past the limit still passes the multipart limit (it leaves room for the form around the file): 413 here.
    const over = uploadForm(new Uint8Array(SKILL_LIMITS.zipBytes + 1));
    const tooLarge = await expectError(await owner.fetch("POST", "/skills/upload/", over), 413, "payload_too_large");
    expect(tooLarge.detail).toBe(`The package is larger than ${SKILL_LIMITS.zipBytes} bytes.`);
    await expectError(await owner.fetch("POST", "/skills/upload/", { file: "x" }), 415, "unsupported_media_type");
    expect(await countSkills(owner.organizationId)).toBe(0);
    const listed = await env.FILES.list({ prefix: `skills/${owner.organizationId}/` });
    expect(listed.objects).toEqual([]);
  });

  it("a package's name holding a line break is refused, as every name the API takes is one line", async () => {
    const owner = await seedOwner();
    const name = `expense\nreport ${crypto.randomUUID().slice(0, 8)}`;
    const bytes = zip({ "SKILL.md": skillMd(`name: ${JSON.stringify(name)}\ndescription: Files an expense report`) });
    const res = await owner.fetch("POST", "/skills/upload/", uploadForm(bytes));
    const made = res.status === 201 ? await bodyOf<"POST /skills/upload/">(res.clone()) : null;
    // It was 201 with the name as given (a line break inside). The skill's own PUT, which requires the name and which
    // the console sends back whole, then refused that very name: the skill could not be edited without renaming it.
    if (made) {
      const put = await owner.fetch("PUT", `/skills/${made.id}/`, { name: made.name, description: "Files it" });
      expect({ upload: res.status, name: made.name, put: put.status }).toEqual({ upload: 400 });
    }
    const body = await expectError(res, 400, "invalid");
    expect(body.detail).toMatch(/name.*control characters/);
    expect(await countSkills(owner.organizationId)).toBe(0);
  });

  it("instructions longer than the skill's PUT takes are refused: the console sends them back whole", async () => {
    const owner = await seedOwner();
    const name = unique("long");
    const instructions = `# Steps\n${"x".repeat(200_000)}`;
    const bytes = zip({ "SKILL.md": skillMd(`name: ${name}\ndescription: Files an expense report`, instructions) });
    const res = await owner.fetch("POST", "/skills/upload/", uploadForm(bytes));
    const made = res.status === 201 ? await bodyOf<"POST /skills/upload/">(res.clone()) : null;
    // It was 201 (SKILL.md within its 512 KiB), and every save of the skill as stored a 400 at its instructions.
    if (made) {
      const put = await owner.fetch("PUT", `/skills/${made.id}/`, { name, description: "Files it", instructions });
      expect({ upload: res.status, put: put.status }).toEqual({ upload: 400 });
    }
    expect((await expectError(res, 400, "invalid")).detail).toMatch(/longer than 200000 characters/);
    expect(await countSkills(owner.organizationId)).toBe(0);
  });

  it("409 on a second skill of the same name, without storing its objects", async () => {
    const owner = await seedOwner();
    const name = unique("dup");
    await uploadSkill(owner, name);
    const before = (await env.FILES.list({ prefix: `skills/${owner.organizationId}/` })).objects.length;
    await expectError(
      await owner.fetch(
        "POST",
        "/skills/upload/",
        uploadForm(zip({ "SKILL.md": skillMd(`name: ${name}\ndescription: again`) })),
      ),
      409,
      "conflict",
    );
    expect((await env.FILES.list({ prefix: `skills/${owner.organizationId}/` })).objects.length).toBe(before);
  });

  it("401 without a key, 403 without skill.manage; a member must pick one of their groups", async () => {
    const owner = await seedOwner();
    const bytes = zip({ "SKILL.md": skillMd("name: m\ndescription: d") });
    await expectError(await call("POST", "/api/v1/skills/upload/", uploadForm(bytes)), 401, "not_authenticated");
    const viewer = await seedMember(owner, ["skill.view"]);
    await expectDenied(await viewer.fetch("POST", "/skills/upload/", uploadForm(bytes)));
    const manager = await seedMember(owner, ["skill.manage"]);
    await expectError(await manager.fetch("POST", "/skills/upload/", uploadForm(bytes)), 400, "invalid");
    const res = await manager.fetch("POST", "/skills/upload/", uploadForm(bytes, { groups: manager.groupId! }));
    expect(res.status, await res.clone().text()).toBe(201);
  });
});

describe("skills CRUD", () => {
  it("creates by hand, lists, updates (PUT and PATCH) and deletes with its objects", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/skills/", {
      name: unique("manual"),
      description: "By hand",
      when_to_use: "Always",
      instructions: "Do it.",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const manual = await bodyOf<"POST /skills/">(res);
    expect(manual).toMatchObject({ source: "manual", whenToUse: "Always", instructions: "Do it.", resources: [] });
    const put = await owner.fetch(
      "PUT",
      `/skills/${manual.id}/`,
      { name: manual.name, description: "Changed", whenToUse: "Sometimes" },
      { prefix: "/api" },
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ description: "Changed", whenToUse: "Sometimes", instructions: "Do it." });
    const patch = await owner.fetch("PATCH", `/skills/${manual.id}/`, { instructions: "Do it twice." });
    expect(await patch.json()).toMatchObject({ description: "Changed", instructions: "Do it twice." });
    await expectError(await owner.fetch("PUT", `/skills/${manual.id}/`, { name: "" }), 400, "invalid");
    await expectError(
      await owner.fetch("PATCH", `/skills/${manual.id}/`, { attachedToolIds: [NO_SUCH_ID] }),
      400,
      "invalid",
    );
    expect(await bodyOf<"GET /skills/{id}/">(await owner.fetch("GET", `/skills/${manual.id}/`))).toMatchObject({
      description: "Changed",
      attachedTools: [],
    });

    const uploaded = await uploadSkill(owner, unique("up"));
    const detail = await bodyOf<"GET /skills/{id}/">(await owner.fetch("GET", `/skills/${uploaded.id}/`));
    const del = await owner.fetch("DELETE", `/skills/${uploaded.id}/`, undefined, { prefix: "/api" });
    expect(del.status).toBe(204);
    expect(await env.FILES.head(detail.resources[0].filePath)).toBeNull();
    expect(await env.FILES.head(detail.skillPackagePath!)).toBeNull();
    await expectNotFound(await owner.fetch("GET", `/skills/${uploaded.id}/`));
  });

  it("members see skills through their groups; another organization's skills are 404", async () => {
    const owner = await seedOwner();
    const skill = await uploadSkill(owner, unique("s"));
    const viewer = await seedMember(owner, ["skill.view"]);
    expect((await bodyOf<"GET /skills/">(await viewer.fetch("GET", "/skills/"))).count).toBe(0);
    await expectNotFound(await viewer.fetch("GET", `/skills/${skill.id}/`));
    await owner.fetch("PATCH", `/skills/${skill.id}/`, { groups: [{ id: viewer.groupId }] });
    expect((await bodyOf<"GET /skills/">(await viewer.fetch("GET", "/skills/"))).count).toBe(1);
    await expectDenied(await viewer.fetch("PATCH", `/skills/${skill.id}/`, { description: "x" }));
    await expectDenied(await viewer.fetch("DELETE", `/skills/${skill.id}/`));
    const plain = await seedMember(owner);
    await expectDenied(await plain.fetch("GET", "/skills/"));

    const stranger = await seedOwner();
    for (const [method, body] of [
      ["GET"],
      ["PUT", { name: "n", description: "d" }],
      ["PATCH", { description: "d" }],
      ["DELETE"],
    ] as const) {
      await expectNotFound(await stranger.fetch(method, `/skills/${skill.id}/`, body));
    }
    await expectNotFound(await stranger.fetch("GET", "/skills/not-a-uuid/"));
    expect((await bodyOf<"GET /skills/">(await stranger.fetch("GET", "/skills/"))).count).toBe(0);
  });

  it("global skills are staff's, shown to every organization with createdBy System", async () => {
    const staff = await seedStaff();
    const owner = await seedOwner();
    const name = unique("global");
    await expectDenied(await owner.fetch("POST", "/skills/", { name, description: "d", isGlobal: true }));
    const res = await staff.fetch("POST", "/skills/", { name, description: "Everywhere", isGlobal: true });
    expect(res.status).toBe(201);
    const global = await bodyOf<"POST /skills/">(res);
    const seen = await bodyOf<"GET /skills/{id}/">(await owner.fetch("GET", `/skills/${global.id}/`));
    expect(seen).toMatchObject({ createdBy: { name: "System" }, canUpdate: false });
    await expectDenied(await owner.fetch("DELETE", `/skills/${global.id}/`));
    expect((await staff.fetch("DELETE", `/skills/${global.id}/`)).status).toBe(204);
  });

  it("a global skill's name is unique among global skills (409 on create, upload and rename)", async () => {
    const staff = await seedStaff();
    const name = unique("global-skill");
    const first = await staff.fetch("POST", "/skills/", { name, description: "Everywhere", isGlobal: true });
    expect(first.status, await first.clone().text()).toBe(201);
    await expectError(
      await staff.fetch("POST", "/skills/", { name, description: "Again", isGlobal: true }),
      409,
      "conflict",
    );
    const upload = uploadForm(zip({ "SKILL.md": skillMd(`name: ${name}\ndescription: Again`) }), { isGlobal: "true" });
    await expectError(await staff.fetch("POST", "/skills/upload/", upload), 409, "conflict");
    const otherName = unique("global-skill");
    const other = await staff.fetch("POST", "/skills/", { name: otherName, description: "Else", isGlobal: true });
    const { id } = await bodyOf<"POST /skills/">(other);
    await expectError(await staff.fetch("PATCH", `/skills/${id}/`, { name }), 409, "conflict");
    // Keeping its own name is no clash, and an organization's skill may share a global one's name.
    const kept = await staff.fetch("PUT", `/skills/${id}/`, { name: otherName, description: "Changed" });
    expect(kept.status, await kept.clone().text()).toBe(200);
    const owner = await seedOwner();
    expect((await owner.fetch("POST", "/skills/", { name, description: "Ours" })).status).toBe(201);
  });

  it("two global skills of one name created at one instant: one is created, the other is 409", async () => {
    const staff = await seedStaff();
    const name = unique("global-race");
    const both = await Promise.all(
      ["One", "Two"].map((description) => staff.fetch("POST", "/skills/", { name, description, isGlobal: true })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    await expectError(both.find((r) => r.status === 409)!, 409, "conflict");
    const stored = await db().select({ id: skills.id }).from(skills).where(eq(skills.name, name));
    expect(stored).toHaveLength(1);
  });

  it("a global skill takes global tools only; a skill shows only tools the caller's organization can use", async () => {
    const staff = await seedStaff();
    // A tool of the staff member's own organization, not a global one.
    const privateTool = await createTool(staff, {
      name: "internal_refund",
      displayName: "Internal refund desk",
      description: "Calls the staff organization's private refund API",
      toolType: "function",
      functionCode: "function main() { return 1; }",
    });
    const body = { name: unique("global-with-tool"), description: "Everywhere", isGlobal: true };
    const refused = await staff.fetch("POST", "/skills/", { ...body, attachedToolIds: [privateTool.id] });
    expect((await expectError(refused, 400, "invalid")).errors?.attachedToolIds?.[0]).toContain(privateTool.id);
    const form = uploadForm(zip({ "SKILL.md": skillMd(`name: ${body.name}\ndescription: d`) }), {
      isGlobal: "true",
      attachedToolIds: privateTool.id,
    });
    await expectError(await staff.fetch("POST", "/skills/upload/", form), 400, "invalid");
    const created = await staff.fetch("POST", "/skills/", body);
    const { id } = await bodyOf<"POST /skills/">(created);
    await expectError(await staff.fetch("PATCH", `/skills/${id}/`, { attachedToolIds: [privateTool.id] }), 400);
    const globalTool = await createTool(staff, {
      name: unique("global_tool").replace(/[^A-Za-z0-9_-]/g, "_"),
      displayName: "Everyone's",
      toolType: "function",
      functionCode: "function main() { return 2; }",
      isGlobal: true,
    });
    const patched = await staff.fetch("PATCH", `/skills/${id}/`, { attachedToolIds: [globalTool.id] });
    expect(patched.status, await patched.clone().text()).toBe(200);
    // One attached before the rule (written straight to D1) is not shown to other organizations.
    await db().insert(skillTools).values({ skillId: id, toolId: privateTool.id });
    const stranger = await seedOwner();
    const seen = await bodyOf<"GET /skills/{id}/">(await stranger.fetch("GET", `/skills/${id}/`));
    expect(seen.attachedTools.map((t) => t.id)).toEqual([globalTool.id]);
  });

  it("401 without a key on every skill route", async () => {
    for (const [method, path] of [
      ["GET", "/skills/"],
      ["POST", "/skills/"],
      ["GET", `/skills/${NO_SUCH_ID}/`],
      ["PATCH", `/skills/${NO_SUCH_ID}/`],
      ["DELETE", `/skills/${NO_SUCH_ID}/`],
    ]) {
      await expectError(
        await call(method, `/api/v1${path}`, method === "GET" || method === "DELETE" ? undefined : {}),
        401,
        "not_authenticated",
      );
    }
  });
});
