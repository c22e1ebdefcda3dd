/**
 * Where the focus goes once a refusal of `scope` (a form, or a dialog's content) is on the page, as accessible forms
 * do: to the first field it marked invalid (`aria-invalid`, its message beside it), else to the refusal's alert (the
 * kit's alerts take the focus, `tabindex=-1`), else back to `sentFrom`. Clicking a submit button makes it busy, so
 * disabled, and the browser drops the focus to the page: a keyboard or screen-reader user would lose their place.
 * Left alone when the person has gone on elsewhere meanwhile (the focus neither on the page, nor in `scope`, nor on
 * what sent it).
 */
export function focusRefusal(scope: Element, sentFrom?: Element | null) {
  const at = document.activeElement;
  const lost = !at || at === document.body || scope.contains(at) || at === sentFrom;
  if (!lost || !scope.isConnected) return;
  const field = scope.querySelector('[aria-invalid="true"]');
  for (const target of [field, alertNear(scope), sentFrom]) {
    if (!(target instanceof HTMLElement) || !target.isConnected) continue;
    target.focus();
    // Not focusable (hidden, disabled): the next one.
    if (document.activeElement === target) return;
  }
}

/**
 * The alert saying the refusal: in `scope`, else the nearest one around it (a form whose page shows its refusal beside
 * it rather than in it), no farther than its dialog or the page's main region.
 */
function alertNear(scope: Element): Element | null {
  for (let at: Element | null = scope; at && at !== document.body; at = at.parentElement) {
    const alert = at.querySelector('.alert[role="alert"]');
    if (alert) return alert;
    if (at.matches("dialog, main")) break;
  }
  return null;
}
