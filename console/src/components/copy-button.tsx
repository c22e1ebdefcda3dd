import { Button } from "./button";
import { announce } from "./announcer";
import { t } from "./strings";

/** Copies `text` to the clipboard and says so (or says to copy it by hand). */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const copy = async () => {
    try {
      // No clipboard outside a secure context: the same as a refusal.
      if (!navigator.clipboard) throw new DOMException("No clipboard", "NotAllowedError");
      await navigator.clipboard.writeText(text);
    } catch (err) {
      // The browser refused (no permission, the document not focused): the text is copied by hand.
      if (!(err instanceof DOMException)) throw err;
      return announce(t("copyFailed"), true);
    }
    announce(t("copied"));
  };
  return <Button onClick={copy}>{label ?? t("copy")}</Button>;
}
