/** Inline SVG icons of the recipe screens (Tabler-style strokes; no icon font, no network). Decorative. */
import type { ReactNode, SVGProps } from "react";

type P = SVGProps<SVGSVGElement>;

function I({ children, ...rest }: P & { children: ReactNode }) {
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
      {...rest}
    >
      {children}
    </svg>
  );
}

const icon = (paths: ReactNode) =>
  function RecipeIcon(props: P) {
    return <I {...props}>{paths}</I>;
  };

export const HeartIcon = icon(<path d="M19.5 12.6 12 20l-7.5-7.4A5 5 0 1 1 12 6a5 5 0 1 1 7.5 6.6z" />);
export function HeartFilledIcon(props: P) {
  return (
    <I {...props} fill="currentColor">
      <path d="M19.5 12.6 12 20l-7.5-7.4A5 5 0 1 1 12 6a5 5 0 1 1 7.5 6.6z" />
    </I>
  );
}
export const DotsIcon = icon(
  <>
    <circle cx="12" cy="5" r="1" />
    <circle cx="12" cy="12" r="1" />
    <circle cx="12" cy="19" r="1" />
  </>,
);
export const PencilIcon = icon(<path d="M4 20h4L18.5 9.5a2.8 2.8 0 0 0-4-4L4 16v4M13.5 6.5l4 4" />);
export const TrashIcon = icon(
  <path d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />,
);
export const DownloadIcon = icon(<path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2M7 11l5 5 5-5M12 4v12" />);
export const CopyIcon = icon(
  <>
    <rect x="8" y="8" width="12" height="12" rx="2" />
    <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
  </>,
);
export const PrinterIcon = icon(
  <path d="M17 17h2a2 2 0 0 0 2-2v-4a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v4a2 2 0 0 0 2 2h2M17 9V5a2 2 0 0 0-2-2H9a2 2 0 0 0-2 2v4M7 13h10v8H7z" />,
);
export const SettingsIcon = icon(
  <>
    <path d="M4 6h8M16 6h4M4 12h2M10 12h10M4 18h11M19 18h1" />
    <circle cx="14" cy="6" r="2" />
    <circle cx="8" cy="12" r="2" />
    <circle cx="17" cy="18" r="2" />
  </>,
);
export const ShareIcon = icon(
  <>
    <circle cx="6" cy="12" r="3" />
    <circle cx="18" cy="6" r="3" />
    <circle cx="18" cy="18" r="3" />
    <path d="m8.7 10.7 6.6-3.4M8.7 13.3l6.6 3.4" />
  </>,
);
export const BoltIcon = icon(<path d="M13 3v7h6l-8 11v-7H5l8-11" />);
export const LinkIcon = icon(
  <path d="M9 15l6-6M11 6l.5-.5a5 5 0 0 1 7 7l-.5.5M13 18l-.4.5a5 5 0 0 1-7-7l.4-.5" />,
);
export const ChefIcon = icon(
  <path d="M12 3a4 4 0 0 1 3.7 2.5A4 4 0 0 1 18 13.5V21H6v-7.5a4 4 0 0 1 2.3-8A4 4 0 0 1 12 3zM6 17h12" />,
);
export const EyeIcon = icon(
  <>
    <circle cx="12" cy="12" r="2" />
    <path d="M22 12c-2.7 4.7-6 7-10 7s-7.3-2.3-10-7c2.7-4.7 6-7 10-7s7.3 2.3 10 7" />
  </>,
);
export const GripIcon = icon(
  <>
    <circle cx="9" cy="5" r="1" />
    <circle cx="9" cy="12" r="1" />
    <circle cx="9" cy="19" r="1" />
    <circle cx="15" cy="5" r="1" />
    <circle cx="15" cy="12" r="1" />
    <circle cx="15" cy="19" r="1" />
  </>,
);
export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />);
export const MinusIcon = icon(<path d="M5 12h14" />);
export const ChevronLeftIcon = icon(<path d="m15 6-6 6 6 6" />);
export const ChevronRightIcon = icon(<path d="m9 6 6 6-6 6" />);
export const UploadIcon = icon(<path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2M7 9l5-5 5 5M12 4v12" />);
export const HeadingIcon = icon(<path d="M7 12h10M7 5v14M17 5v14M15 19h4M15 5h4M5 19h4M5 5h4" />);
export const XIcon = icon(<path d="M18 6 6 18M6 6l12 12" />);
