/**
 * Where focus goes back to when a dialog closes. Mantine's Modal returns it to whatever had it when the
 * dialog opened, but a dialog opened from a menu item was opened from an element its menu removes on
 * closing: focus then fell to <body>, and a keyboard user started again from the top of the page. A menu
 * item stands for its menu's button (the dropdown is labelled by it), as the menu button pattern wants.
 */
export function focusHome(el: Element | null): HTMLElement | null {
  if (!(el instanceof HTMLElement) || el === el.ownerDocument.body) return null;
  const menu = el.closest<HTMLElement>("[role=menu]");
  const button = menu?.getAttribute("aria-labelledby");
  return (button ? el.ownerDocument.getElementById(button) : null) ?? el;
}

/** Focus back on `home` unless the person has already put it somewhere that is still on the page. */
export function returnFocus(home: HTMLElement | null, dialog: Element | null): void {
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || !!dialog?.contains(active);
  if (lost && home?.isConnected) home.focus({ preventScroll: true });
}
