/**
 * A hover tooltip that costs nothing until a pointer first comes over its target (decision 0120).
 * Mantine's Tooltip runs its floating-ui hooks on every render — every server render of a page, and every
 * hydration — though it adds nothing to the target's HTML and opens only on hover (its default events).
 * So the target renders alone until the first pointerenter, then inside a Tooltip; a mouse that brought it
 * there sees it open at once, as before. Use as Mantine's Tooltip: `<Hint label={…}><ActionIcon …/></Hint>`.
 */
import { cloneElement, useState, type PointerEvent, type ReactElement, type ReactNode } from "react";
import { Tooltip } from "@mantine/core";

type Target = ReactElement<{ onPointerEnter?: (e: PointerEvent<HTMLElement>) => void }>;

export function Hint({ label, children }: { label: ReactNode; children: Target }) {
  const [armed, setArmed] = useState<"no" | "mouse" | "other">("no");
  if (armed !== "no")
    return (
      <Tooltip label={label} defaultOpened={armed === "mouse"}>
        {children}
      </Tooltip>
    );
  return cloneElement(children, {
    onPointerEnter: (e: PointerEvent<HTMLElement>) => {
      children.props.onPointerEnter?.(e);
      setArmed(e.pointerType === "mouse" ? "mouse" : "other");
    },
  });
}
