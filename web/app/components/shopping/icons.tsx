/** Icons of the shopping screens: the recipe screens' set, plus a few of their own (decorative). */
import type { SVGProps } from "react";

export {
  DotsIcon,
  GripIcon,
  PencilIcon,
  PlusIcon,
  TrashIcon,
  ChevronLeftIcon,
  XIcon,
} from "../recipe/icons.js";

type P = SVGProps<SVGSVGElement>;

function I(props: P) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1.15em"
      height="1.15em"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      focusable="false"
      {...props}
    />
  );
}

export function CartIcon(props: P) {
  return (
    <I {...props}>
      <path d="M6 19a2 2 0 1 0 4 0 2 2 0 1 0-4 0M17 19a2 2 0 1 0 4 0 2 2 0 1 0-4 0M17 17H6V3H4M6 5l14 1-1 7H6" />
    </I>
  );
}
export function CloudOffIcon(props: P) {
  return (
    <I {...props}>
      <path d="M3 3l18 18M18 18H7a4 4 0 0 1-.9-7.9A6 6 0 0 1 8 6.3M11 5a6 6 0 0 1 7 5h.5a3.5 3.5 0 0 1 2.4 6" />
    </I>
  );
}
export function ArrowUpIcon(props: P) {
  return (
    <I {...props}>
      <path d="M12 19V5M5 12l7-7 7 7" />
    </I>
  );
}
export function ArrowDownIcon(props: P) {
  return (
    <I {...props}>
      <path d="M12 5v14M5 12l7 7 7-7" />
    </I>
  );
}
