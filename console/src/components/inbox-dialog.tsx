import type { ComponentChildren } from "preact";
import { choicesOf } from "../api/choices";
import type { ApiProblem } from "../api/client";
import type { Vars } from "../i18n";
import { navigate } from "../shell/router";
import { organizationId } from "../shell/session";
import { ErrorAlert, Loading } from "./alert";
import { createInbox, type Inbox, type NewInbox } from "./api";
import { SelectField, TextField } from "./field";
import { FormDialog } from "./form-dialog";
import { t } from "./strings";
import { toast } from "./toast";
import { useResource } from "./use-resource";
import { useSubmit } from "./use-submit";

/** The assistants the member may pick; none when they may not list them (the inbox can still be made). */
const assistants = () =>
  choicesOf("assistants", organizationId.value!).then((found) =>
    (found ?? []).map((a) => [a.id, a.name] as [string, string]),
  );

interface Props {
  /** The form's id (its submit button is in the dialog's footer). */
  id: string;
  /**
   * The page's strings, which name the dialog's words alike: its title (`newInbox`), intro, the assistant's "none" and
   * hint, and the toast's (given `{name}`).
   */
  strings: (
    key: "newInbox" | "newInboxIntro" | "noAssistant" | "assistantHint" | "createdToast",
    vars?: Vars,
  ) => string;
  /** The inbox's type, read from the form (a field of `fields`) or fixed. */
  channelType: (form: FormData) => NewInbox["channelType"];
  /** Fields after the name (the platform, say), shown with the API's problem. */
  fields?: (problem: ApiProblem | null) => ComponentChildren;
  /** Where to go once it is made (null: stay). */
  next: (inbox: Inbox) => string | null;
  onClose: () => void;
}

/** A new inbox with its name and, if the member may list them, its assistant; the page of `next` opens after. */
export function InboxCreateDialog({ id, strings, channelType, fields, next, onClose }: Props) {
  const choices = useResource(assistants, []);
  const submitting = useSubmit(async (form) => {
    const name = String(form.get("name") ?? "").trim();
    const chatbot = String(form.get("chatbot") ?? "");
    const inbox = await createInbox({
      name,
      channelType: channelType(form),
      chatbot: chatbot ? { id: chatbot } : null,
    });
    toast(strings("createdToast", { name: inbox.name }));
    onClose();
    const to = next(inbox);
    if (to) navigate(to);
  });
  const { problem } = submitting;
  return (
    <FormDialog title={strings("newInbox")} formId={id} submit={t("create")} submitting={submitting} onClose={onClose}>
      <p class="muted">{strings("newInboxIntro")}</p>
      <TextField label={t("inboxName")} name="name" required maxLength={200} />
      {fields?.(problem)}
      {choices.data ? (
        <SelectField
          label={t("inboxAssistant")}
          name="chatbot"
          options={[...choices.data, ["", strings("noAssistant")]]}
          hint={strings("assistantHint")}
          error={problem?.field("chatbot") ?? problem?.field("chatbot.id")}
        />
      ) : choices.error ? (
        <ErrorAlert error={choices.error} />
      ) : (
        <Loading />
      )}
    </FormDialog>
  );
}
