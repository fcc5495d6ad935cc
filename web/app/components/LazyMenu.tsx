/**
 * Mantine's Menu, mounted when its button is first used (decision 0121). A closed Menu renders only its
 * button, yet its Popover and floating-ui hooks ran on every server render and hydration of every page.
 * Until the first click the button renders alone, with the attributes a closed Menu gives it; the click
 * mounts the Menu closed, gives the new button the focus the old one had (Mantine's Menu replaces the
 * element), then opens it — so focus returns to the button when the menu closes, as before.
 *
 *   <LazyMenu target={<ActionIcon aria-label=…>…</ActionIcon>} position="bottom-end" width={240}>
 *     <Menu.Item …>…</Menu.Item>
 *   </LazyMenu>
 */
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from "react";
import { Menu, type MenuProps } from "@mantine/core";
import { openMenuOnArrow } from "../lib/theme.js";

type Target = ReactElement<{
  onClick?: (e: MouseEvent<HTMLElement>) => void;
  onKeyDown?: (e: KeyboardEvent<HTMLElement>) => void;
  ref?: Ref<HTMLElement>;
}>;

export interface LazyMenuProps extends Omit<MenuProps, "children" | "opened" | "onChange"> {
  target: Target;
  children: ReactNode;
}

export function LazyMenu({ target, children, ...menuProps }: LazyMenuProps) {
  const [stage, setStage] = useState<"idle" | "mounting" | "mounted">("idle");
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLElement>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    if (stage !== "mounting") return;
    if (hadFocus.current) button.current?.focus();
    setStage("mounted");
    setOpened(true);
  }, [stage]);

  if (stage === "idle")
    return cloneElement(target, {
      "aria-haspopup": "menu",
      "aria-expanded": false,
      onClick: (e: MouseEvent<HTMLElement>) => {
        target.props.onClick?.(e);
        hadFocus.current = document.activeElement === e.currentTarget;
        setStage("mounting");
      },
      onKeyDown: openMenuOnArrow,
    } as Partial<Target["props"]>);

  return (
    <Menu {...menuProps} opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(target, { ref: button })}</Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
