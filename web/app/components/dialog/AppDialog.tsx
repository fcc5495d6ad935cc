/**
 * The reusable dialog (spec §2 Other UI, §4): Enter submits, Esc or a click outside cancels, full screen
 * on extra-small screens. After a submit it closes once `loading` is false, unless `keepOpen`; an
 * `onSubmit` that returns `false` (or throws) keeps it open, e.g. when the form has errors.
 *
 *   <AppDialog opened={open} onClose={close} title={t("…")} onSubmit={save} loading={busy}>…</AppDialog>
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { Button, Group } from "@mantine/core";
import { focusHome, returnFocus } from "./focus-home.js";
import { LazyModal } from "./LazyModal.js";
import { useMediaQuery } from "@mantine/hooks";
import { useT } from "../../lib/i18n.js";

/** Mantine's xs breakpoint is 36em: below it a dialog takes the whole screen. */
export const XS_QUERY = "(max-width: 35.99em)";

export interface AppDialogProps {
  opened: boolean;
  /** Cancel: Esc, a click outside, the cancel button, or after a successful submit. */
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** Enter or the submit button. Without it the dialog only has a close button. */
  onSubmit?: () => unknown | Promise<unknown>;
  /** Default: common:actions.submit. */
  submitLabel?: string;
  /** Default: common:actions.cancel (common:actions.close without onSubmit). */
  cancelLabel?: string;
  /** A Mantine colour for the submit button, e.g. "error" for a delete confirmation. */
  submitColor?: string;
  /** The caller's own busy state: the submit button spins and the dialog waits for it before closing. */
  loading?: boolean;
  /** Stay open after a submit (e.g. a dialog that shows a created token). */
  keepOpen?: boolean;
  /** false disables the submit button (and Enter). */
  canSubmit?: boolean;
  /**
   * Open with focus on the cancel button, for a confirmation whose action cannot be taken back (an
   * import): a stray Enter or Space then cancels instead of confirming. Otherwise the first control.
   */
  focusCancel?: boolean;
  /** Max width in px (spec §9: print 816, search 988); default 500. */
  maxWidth?: number;
  /** Extra buttons, shown before cancel. */
  actions?: ReactNode;
  /** Hide the whole button row (the content brings its own). */
  hideActions?: boolean;
  className?: string;
  "data-testid"?: string;
}

/** Inputs where a person types a line of text: Enter there means "done", so it submits the dialog. */
const TEXT_INPUTS = new Set(["text", "email", "number", "password", "search", "tel", "url", "date", "time"]);

/**
 * Spec §2: Enter submits, but only from a one-line text field. Anywhere else Enter belongs to the
 * focused control (a button, link, checkbox, switch, option or textarea activates itself) or means
 * nothing (focus on the dialog itself), and must not submit behind the person's back.
 */
export function enterSubmits(target: EventTarget | null): boolean {
  const el = target as Partial<Pick<HTMLElement, "tagName" | "isContentEditable" | "getAttribute">> | null;
  if (!el || typeof el.getAttribute !== "function") return false;
  if (el.isContentEditable || el.tagName !== "INPUT") return false;
  // A combobox with its list open picks the highlighted option on Enter.
  if (el.getAttribute("aria-expanded") === "true") return false;
  return TEXT_INPUTS.has((el.getAttribute("type") ?? "text").toLowerCase());
}

export function AppDialog({
  opened,
  onClose,
  title,
  children,
  onSubmit,
  submitLabel,
  cancelLabel,
  submitColor,
  loading = false,
  keepOpen = false,
  canSubmit = true,
  focusCancel = false,
  maxWidth = 500,
  actions,
  hideActions = false,
  className,
  "data-testid": testId,
}: AppDialogProps) {
  const t = useT("common");
  const xs = useMediaQuery(XS_QUERY);
  const formId = useId();
  const [pending, setPending] = useState(false);
  const [closeWhenIdle, setCloseWhenIdle] = useState(false);
  const home = useRef<HTMLElement | null>(null);
  const form = useRef<HTMLFormElement>(null);

  // Before the dialog's focus trap moves focus in (it waits a tick), note where it was.
  useLayoutEffect(() => {
    if (opened) home.current = focusHome(document.activeElement);
  }, [opened]);

  useEffect(() => {
    if (closeWhenIdle && !loading) {
      setCloseWhenIdle(false);
      onClose();
    }
  }, [closeWhenIdle, loading, onClose]);

  const submit = async () => {
    if (!onSubmit) return onClose();
    if (!canSubmit || pending || loading) return;
    setPending(true);
    let ok = true;
    try {
      ok = (await onSubmit()) !== false;
    } catch (e) {
      ok = false;
      console.error(e);
    } finally {
      setPending(false);
    }
    if (ok && !keepOpen) setCloseWhenIdle(true);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing || e.defaultPrevented) return;
    if (!enterSubmits(e.target)) return;
    e.preventDefault();
    void submit();
  };

  return (
    <LazyModal
      opened={opened}
      onClose={onClose}
      title={title}
      fullScreen={Boolean(xs)}
      size={maxWidth}
      closeOnEscape
      closeOnClickOutside
      centered={!xs}
      className={className}
      data-testid={testId}
      closeButtonProps={{ "aria-label": t("actions.close") }}
      returnFocus={false}
      onExitTransitionEnd={() => returnFocus(home.current, form.current?.closest("[role=dialog]") ?? null)}
    >
      <form
        ref={form}
        id={formId}
        onKeyDown={onKeyDown}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {children}
        {hideActions ? null : (
          <Group justify="flex-end" mt="lg" gap="sm">
            {actions}
            <Button
              variant="subtle"
              color="gray"
              onClick={onClose}
              type="button"
              data-autofocus={focusCancel || undefined}
            >
              {cancelLabel ?? (onSubmit ? t("actions.cancel") : t("actions.close"))}
            </Button>
            {onSubmit ? (
              <Button type="submit" color={submitColor} loading={pending || loading} disabled={!canSubmit}>
                {submitLabel ?? t("actions.submit")}
              </Button>
            ) : null}
          </Group>
        )}
      </form>
    </LazyModal>
  );
}
