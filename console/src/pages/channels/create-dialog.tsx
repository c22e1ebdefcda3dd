import { choicesOf } from "../../api/choices";
import { api, unwrap } from "../../api/client";
import { ErrorAlert, FormError, Loading } from "../../components/alert";
import { Button } from "../../components/button";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/field";
import { t as common } from "../../components/strings";
import { toast } from "../../components/toast";
import { useResource } from "../../components/use-resource";
import { useSubmit } from "../../components/use-submit";
import { navigate } from "../../shell/router";
import { organizationId } from "../../shell/session";
import { MESSAGING_TYPES, NOT_CONNECTABLE, platformName, type ChannelType } from "./platforms";
import { t } from "./strings";

/** The assistants the member may pick; none when they may not list them (the inbox can still be made). */
const assistants = () =>
  choicesOf("assistants", organizationId.value!).then((found) =>
    (found ?? []).map((a) => [a.id, a.name] as [string, string]),
  );

/** A new messaging inbox; its channel page opens next, where it is set up and connected. */
export function CreateDialog({ onClose }: { onClose: () => void }) {
  const choices = useResource(assistants, []);
  const { busy, problem, submit } = useSubmit(async (form) => {
    const name = String(form.get("name") ?? "").trim();
    const channelType = String(form.get("channelType")) as ChannelType;
    const chatbot = String(form.get("chatbot") ?? "");
    const inbox = await unwrap(
      api.POST("/api/v1/inboxes/", { body: { name, channelType, chatbot: chatbot ? { id: chatbot } : null } }),
    );
    toast(t("createdToast", { name: inbox.name }));
    onClose();
    navigate(`/channels/${inbox.id}`);
  });
  // Types that cannot be connected yet are listed, not offered: such an inbox would wait for nothing.
  const types = MESSAGING_TYPES.map((type): [string, string, boolean] =>
    NOT_CONNECTABLE[type] ? [type, t("notYet", { name: platformName(type) }), true] : [type, platformName(type), false],
  );
  return (
    <Dialog
      title={t("newInbox")}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{common("cancel")}</Button>
          <Button type="submit" form="channel-new" variant="primary" busy={busy}>
            {t("create")}
          </Button>
        </>
      }
    >
      <form id="channel-new" onSubmit={submit} class="stack">
        <FormError problem={problem} />
        <p class="muted">{t("newInboxIntro")}</p>
        <TextField label={t("name")} name="name" required maxLength={200} error={problem?.field("name")} />
        <SelectField label={t("platform")} name="channelType" options={types} error={problem?.field("channelType")} />
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
