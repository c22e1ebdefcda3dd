/**
 * Whether `event` is part of an input method's composition: Enter confirming a Chinese or Japanese candidate is the
 * IME's, not the page's. `isComposing` says so; Safari gives that Enter after the composition ended, with keyCode 229
 * (the key an IME took) as the only sign.
 */
export const composing = (event: KeyboardEvent) => event.isComposing || event.keyCode === 229;

/** The key that sends a message box's text, as chat and inbox products have it: Enter; Shift+Enter adds a line. */
export const sendsMessage = (event: KeyboardEvent) => event.key === "Enter" && !event.shiftKey && !composing(event);
