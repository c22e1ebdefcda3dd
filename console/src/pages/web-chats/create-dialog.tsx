import { choicesOf } from "../../api/choices";
import { api, unwrap } from "../../api/client";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/field";
import { ErrorAlert, FormError, Loading } from "../../components/alert";
import { toast } from "../../components/toast";
import { t as common } from "../../components/strings";
import { useResource } from "../../components/use-resource";
import { useSubmit } from "../../components/use-submit";
import { navigate } from "../../shell/router";
import { organizationId } from "../../shell/session";
import { t } from "./strings";

/** The assistants the member may pick; none when they may not list them (the web chat can still be made). */
const assistants = () =>
  choicesOf("assistants", organizationId.value!).then((found) =>
    (found ?? []).map((a) => [a.id, a.name] as [string, string]),
  );

/**
 * A new web chat: a web inbox is created with its assistant, and the API creates the inbox's web
 * chat in the same write; the designer opens on it.
 */
export function CreateDialog({ onClose }: { onClose: () => void }) {
  const choices = useResource(assistants, []);
  const { busy, problem, submit } = useSubmit(async (form) => {
    const name = String(form.get("name") ?? "").trim();
    const chatbot = String(form.get("chatbot") ?? "");
    const inbox = await unwrap(
      api.POST("/api/v1/inboxes/", { body: { name, channelType: "web", chatbot: chatbot ? { id: chatbot } : null } }),
    );
    toast(t("created", { name: inbox.name }));
    onClose();
    if (inbox.channel) navigate(`/web-chats/${inbox.channel.id}`);
  });
  return (
    <Dialog
      title={t("newWebChat")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="web-chat-new" variant="primary" busy={busy}>
            {t("create")}
          </Button>
        </>
      }
    >
      <form id="web-chat-new" onSubmit={submit} class="stack">
        <FormError problem={problem} />
        <p class="muted">{t("newWebChatIntro")}</p>
        <TextField label={t("name")} name="name" required maxLength={200} error={problem?.field("name")} />
        {choices.data ? (
          <SelectField
            label={t("assistant")}
            name="chatbot"
            options={[...choices.data, ["", t("noAssistant")]]}
            hint={t("assistantHint")}
            error={problem?.field("chatbot") ?? problem?.field("chatbot.id")}
          />
        ) : choices.error ? (
          <ErrorAlert error={choices.error} />
        ) : (
          <Loading />
        )}
      </form>
    </Dialog>
  );
}
