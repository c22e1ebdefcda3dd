import { SelectField, InboxCreateDialog } from "../../components";
import { MESSAGING_TYPES, NOT_CONNECTABLE, platformName, type ChannelType } from "./platforms";
import { t } from "./strings";

/** A new messaging inbox; its channel page opens next, where it is set up and connected. */
export function CreateDialog({ onClose }: { onClose: () => void }) {
  // Types that cannot be connected yet are listed, not offered: such an inbox would wait for nothing.
  const types = MESSAGING_TYPES.map((type): [string, string, boolean] =>
    NOT_CONNECTABLE[type] ? [type, t("notYet", { name: platformName(type) }), true] : [type, platformName(type), false],
  );
  return (
    <InboxCreateDialog
      id="channel-new"
      strings={t}
      channelType={(form) => String(form.get("channelType")) as ChannelType}
      fields={() => <SelectField label={t("platform")} name="channelType" options={types} />}
      next={(inbox) => `/channels/${inbox.id}`}
      onClose={onClose}
    />
  );
}
