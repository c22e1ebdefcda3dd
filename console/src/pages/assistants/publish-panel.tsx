import { useState } from "preact/hooks";
import { Button, ErrorAlert, Loading, SelectField, toast, useAction, useResource } from "../../components";
import { BASE, followLink } from "../../shell/router";
import { can } from "../../shell/session";
import { EmbedCodes } from "../web-chats/embed-codes";
import { createWebInbox, webChatsOf } from "./api";
import { t } from "./strings";

/**
 * How to put the assistant on a website, on its own page: the codes of its web chat (the widget),
 * or, when it has none yet, a button that makes one (a web inbox with this assistant).
 */
export function PublishPanel({ assistantId, assistantName }: { assistantId: string; assistantName: string }) {
  const chats = useResource(() => webChatsOf(assistantId), [assistantId]);
  const [chosen, setChosen] = useState<string | null>(null);
  const creating = useAction(async () => {
    await createWebInbox(assistantId, assistantName);
    await chats.reload();
    toast(t("webChatCreated", { name: assistantName }));
    // The pressed button is gone, its place taken by the codes: the focus goes to the panel's heading, above them,
    // not to the page's body.
    document.getElementById("publish-title")?.focus();
  });
  const list = chats.data;
  const current = list?.find((c) => c.id === chosen) ?? list?.[0];
  return (
    <section class="section publish" aria-labelledby="publish-title">
      <h2 id="publish-title" tabIndex={-1}>
        {t("publish")}
      </h2>
      <p class="muted">{t("publishIntro")}</p>
      <ErrorAlert error={chats.error} />
      {list === undefined ? (
        chats.loading && <Loading />
      ) : !current ? (
        <>
          <p>{t("noWebChat")}</p>
          <ErrorAlert error={creating.problem} />
          {can("inbox.manage") ? (
            <Button variant="primary" busy={creating.busy} onClick={creating.run}>
              {t("createWebChat")}
            </Button>
          ) : (
            <p class="muted">{t("noWebChatAsk")}</p>
          )}
        </>
      ) : (
        <>
          <div class="publish-head">
            {list.length > 1 && (
              <SelectField
                label={t("webChat")}
                value={current.id}
                onChange={(e) => setChosen(e.currentTarget.value)}
                options={list.map((c) => [c.id, c.name])}
              />
            )}
            <a href={`${BASE}/web-chats/${current.id}`} onClick={followLink}>
              {t("designWebChat", { name: current.name })}
            </a>
          </div>
          <EmbedCodes webChatId={current.id} />
        </>
      )}
    </section>
  );
}

/** A header button that brings the panel into view and puts the focus on its heading. */
export function PublishButton() {
  const go = () => {
    const heading = document.getElementById("publish-title");
    heading?.scrollIntoView({ block: "start" });
    heading?.focus();
  };
  return <Button onClick={go}>{t("publish")}</Button>;
}
