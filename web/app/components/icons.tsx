/** Inline SVG icons (no icon font, no network): decorative unless given a title. */
import type { ReactNode, SVGProps } from "react";

export type IconProps = SVGProps<SVGSVGElement> & { title?: string; size?: number | string };

/** The frame every icon shares: a 24-unit stroked outline, `size` wide and high (default 1em). */
export function Icon({ title, size = "1em", children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      focusable="false"
      {...rest}
    >
      {title ? <title>{title}</title> : null}
      {children}
    </svg>
  );
}

/** The Larder mark: a storage jar with a lid. */
export function LogoIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="7" y="2.5" width="10" height="3.5" rx="1" />
      <path d="M6.5 6h11a1.5 1.5 0 0 1 1.5 1.5v11A3 3 0 0 1 16 21.5H8A3 3 0 0 1 5 18.5v-11A1.5 1.5 0 0 1 6.5 6z" />
      <path d="M8.5 12.5h7M8.5 16h5" />
    </Icon>
  );
}

export function SearchIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </Icon>
  );
}

export function LogoutIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
      <path d="m16 17 5-5-5-5M21 12H9" />
    </Icon>
  );
}

/** Shown where a recipe has no image, or its image fails to load. */
export function DishIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 15h18" />
      <path d="M4.5 15a7.5 7.5 0 0 1 15 0" />
      <path d="M12 7.5V6M10.5 6h3" />
      <path d="M2.5 18h19" />
    </Icon>
  );
}

export function ClockIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Icon>
  );
}

export function ServingsIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0 1 13 0" />
      <path d="M16 4.5a3.5 3.5 0 0 1 0 7M18.5 20a6.5 6.5 0 0 0-3-5.5" />
    </Icon>
  );
}

export function HomeIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m3 11 9-7 9 7" />
      <path d="M5 10v10h14V10" />
    </Icon>
  );
}
