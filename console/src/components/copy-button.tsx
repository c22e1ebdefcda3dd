import { useEffect, useState } from "preact/hooks";
import { Button } from "./button";
import { announce } from "./announcer";
import { t } from "./strings";

/**
 * Copies `text` to the clipboard and says so: "Copied" beside the button for a moment (seen), and
 * through the announcer (heard); or says to copy it by hand.
 */
export function CopyButton({ text, label, name }: { text: string; label?: string; name?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2500);
    return () => clearTimeout(timer);
  }, [copied]);
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
    setCopied(true);
    announce(t("copied"));
  };
  return (
    <span class="copy">
      <Button aria-label={name} onClick={copy}>
        {label ?? t("copy")}
      </Button>
      {/* Hidden from the accessibility tree: the announcer already said it. */}
      {copied && (
        <span class="copied" aria-hidden="true">
          ✓ {t("copiedShort")}
        </span>
      )}
    </span>
  );
}
