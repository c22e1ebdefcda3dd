import { useState } from "preact/hooks";
import { Button, ConfirmDialog, toast } from "../../components";
import { disconnectChannel } from "./api";
import { platformName, type Channel } from "./platforms";
import { t } from "./strings";

/**
 * Disconnect, asked first: the credentials are forgotten, the conversations stay. `onDone` gets the channel as it now
 * reads, and a warning when the platform would not remove its webhook (the channel is off all the same).
 */
export function DisconnectAction({
  channel,
  onDone,
}: {
  channel: Channel;
  onDone: (channel: Channel, warning: string | null) => void;
}) {
  const [asking, setAsking] = useState(false);
  const platform = platformName(channel.channelType);
  return (
    <div>
      <Button variant="danger" onClick={() => setAsking(true)}>
        {t("disconnect")}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t("disconnectTitle", { platform })}
        message={t("disconnectMessage", { platform })}
        action={t("disconnect")}
        onClose={() => setAsking(false)}
        onConfirm={async () => {
          const answer = await disconnectChannel(channel.inboxId);
          const warning = answer.platformRefusal
            ? t("disconnectedRefused", { platform, detail: answer.platformRefusal })
            : null;
          // A warning stays on the page, in an alert (it names what is left to do); all went well, a toast.
          if (!warning) toast(t("disconnectedToast", { platform }));
          onDone(answer, warning);
        }}
      />
    </div>
  );
}
