/**
 * A hover tooltip that costs nothing until a pointer first comes over its target (decision 0120).
 * Mantine's Tooltip runs its floating-ui hooks on every render — every server render of a page, and every
 * hydration — though it adds nothing to the target's HTML and opens only on hover (its default events).
 * So the target renders alone until the first pointerenter; then a Tooltip is mounted beside it, pointed
 * at it (`target`), and a mouse that brought it there sees it open at once, as before.
 *
 * Beside, not around: wrapping the target in the Tooltip then made React replace the target's element,
 * and a press that began on the old element and ended on the new one was no click — a first tap or a
 * quick click on a hinted icon was lost whenever the page committed between the two (seen on a busy
 * machine as the phone's search icon not opening the search).
 */
import {
  cloneElement,
  useRef,
  useState,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from "react";
import { Tooltip } from "@mantine/core";

type Target = ReactElement<{
  onPointerEnter?: (e: PointerEvent<HTMLElement>) => void;
  ref?: Ref<HTMLElement>;
}>;

export function Hint({ label, children }: { label: ReactNode; children: Target }) {
  const [armed, setArmed] = useState<"no" | "mouse" | "other">("no");
  const target = useRef<HTMLElement>(null);
  return (
    <>
      {cloneElement(children, {
        ref: target,
        onPointerEnter: (e: PointerEvent<HTMLElement>) => {
          children.props.onPointerEnter?.(e);
          if (armed === "no") setArmed(e.pointerType === "mouse" ? "mouse" : "other");
        },
      })}
      {armed !== "no" ? <Tooltip target={target} label={label} defaultOpened={armed === "mouse"} /> : null}
    </>
  );
}
