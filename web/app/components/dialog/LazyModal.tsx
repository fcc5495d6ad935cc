/**
 * Mantine's Modal, mounted only from the first time it opens (decision 0120). A page carries several
 * closed dialogs (search, language, share, print preferences, delete…); a closed Modal renders nothing
 * visible, yet its hooks and its children's props ran on every server render and every hydration. Until
 * it first opens this renders nothing at all; then it mounts closed for one commit and opens, so the
 * opening transition and focus handling are Mantine's own, as before.
 */
import { Suspense, useEffect, useState, type ReactNode } from "react";
import { Modal, type ModalProps } from "@mantine/core";

/**
 * null until `opened` is first true; then false for one commit, then `opened` itself. What a lazily
 * mounted dialog passes on as its `opened`.
 */
export function useLazyOpen(opened: boolean): boolean | null {
  const [stage, setStage] = useState<"unmounted" | "mounting" | "mounted">("unmounted");
  useEffect(() => {
    if (stage === "unmounted" && opened) setStage("mounting");
    else if (stage === "mounting") setStage("mounted");
  }, [opened, stage]);
  if (stage === "unmounted") return null;
  return stage === "mounted" && opened;
}

/**
 * Mantine learns the reduced-motion preference in an effect, after the first open of a dialog mounted
 * just before it: that first open still animated. Read here, where it is known, when the dialog opens
 * (only ever in the browser).
 */
function prefersReducedMotion(opened: boolean | null): boolean {
  return opened === true && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function LazyModal(props: ModalProps) {
  const opened = useLazyOpen(props.opened);
  if (opened === null) return null;
  const still = prefersReducedMotion(opened);
  return (
    <Modal
      {...props}
      opened={opened}
      transitionProps={still ? { ...props.transitionProps, duration: 0 } : props.transitionProps}
    />
  );
}

/**
 * Renders `children` from the first time `opened` is true on, for a dialog whose own body (its hooks,
 * the rows it lays out) is worth skipping until someone opens it — or whose code is loaded only then
 * (React.lazy: nothing shows until it has loaded). The dialog mounts opened; its LazyModal still
 * mounts closed for a commit first, so it opens with its transition.
 */
export function WhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [seen, setSeen] = useState(opened);
  if (opened && !seen) setSeen(true);
  return seen ? <Suspense fallback={null}>{children}</Suspense> : null;
}
