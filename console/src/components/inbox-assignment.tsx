import { useState } from "preact/hooks";
import { choicesOf } from "../api/choices";
import { defineStrings } from "../i18n";
import { membership, can } from "../shell/session";
import { getInbox, patchInbox } from "./api";
import { ErrorAlert, FormError, Loading } from "./alert";
import { announce } from "./announcer";
import { Button } from "./button";
import { SelectField, TextField } from "./field";
import { useResource } from "./use-resource";
import { useSubmit } from "./use-submit";

const t = defineStrings({
  en: {
    title: "Assignment",
    intro: "Who serves a conversation once the assistant hands it to a person.",
    mode: "Mode",
    manual: "Manual: operators assign",
    round_robin: "Round-robin among online agents",
    team: "Team",
    everyone: "Everyone who may manage conversations",
    capacity: "Conversations per agent",
    capacityHint: "1 to 100; an agent's own capacity overrides it.",
    save: "Save assignment",
    saved: "Assignment saved.",
  },
  "zh-TW": {
    title: "指派",
    intro: "助理將對話轉給真人後，由誰接手。",
    mode: "方式",
    manual: "手動：由客服人員指派",
    round_robin: "在上線的客服之間輪流分派",
    team: "團隊",
    everyone: "所有可管理對話的成員",
    capacity: "每位客服同時處理的對話數",
    capacityHint: "1 到 100；客服個人的上限優先。",
    save: "儲存指派設定",
    saved: "指派設定已儲存。",
  },
});

async function load(inboxId: string, organizationPk: string) {
  const [inbox, groups] = await Promise.all([getInbox(inboxId), choicesOf("groups", organizationPk)]);
  return { assignment: inbox.assignment, teams: (groups ?? []).map((g): [string, string] => [g.id, g.name]) };
}

/** An inbox's assignment setting (manual or round-robin, team, capacity): a small form of its own. */
export function InboxAssignmentSection({ inboxId }: { inboxId: string }) {
  const organizationPk = membership.value?.organization.id ?? "";
  const loaded = useResource(() => load(inboxId, organizationPk), [inboxId, organizationPk]);
  const [saved, setSaved] = useState<number>(0);
  const { busy, problem, submit } = useSubmit(async (form) => {
    const mode = form.get("mode") === "round_robin" ? "round_robin" : "manual";
    const teamId = String(form.get("teamId") ?? "") || null;
    const capacity = Number(form.get("capacity"));
    await patchInbox(inboxId, { assignment: { mode, teamId, capacity } });
    setSaved((n) => n + 1);
    announce(t("saved"));
  });
  const manage = can("inbox.manage");
  const a = loaded.data?.assignment;
  return (
    <section class="stack inbox-assignment" aria-labelledby="inbox-assignment-title">
      <h2 id="inbox-assignment-title">{t("title")}</h2>
      <p class="muted">{t("intro")}</p>
      <ErrorAlert error={loaded.error} />
      {!a ? (
        loaded.loading && <Loading />
      ) : (
        <form key={saved} class="stack" onSubmit={submit} aria-labelledby="inbox-assignment-title">
          <FormError problem={problem} />
          <fieldset class="plain" disabled={!manage}>
            <SelectField
              name="mode"
              label={t("mode")}
              defaultValue={a.mode}
              options={[
                ["manual", t("manual")],
                ["round_robin", t("round_robin")],
              ]}
              error={problem?.field("assignment.mode")}
            />
            <SelectField
              name="teamId"
              label={t("team")}
              defaultValue={a.teamId ?? ""}
              options={[["", t("everyone")], ...loaded.data!.teams]}
              error={problem?.field("assignment.teamId")}
            />
            <TextField
              name="capacity"
              type="number"
              min={1}
              max={100}
              required
              label={t("capacity")}
              hint={t("capacityHint")}
              defaultValue={String(a.capacity)}
              error={problem?.field("assignment.capacity")}
            />
          </fieldset>
          {manage && (
            <Button type="submit" variant="primary" busy={busy}>
              {t("save")}
            </Button>
          )}
        </form>
      )}
    </section>
  );
}
