/** R2 keys of a skill's objects: `skills/<organization|global>/<skill>/<package|files>/<path>`. */
export const skillObjectKey = (
  organizationId: string | null,
  skillId: string,
  kind: "package" | "files",
  path: string,
) => `skills/${organizationId ?? "global"}/${skillId}/${kind}/${path}`;
