/** Icons of the planner and the timeline; decorative unless given a title. */
import type { ReactNode } from "react";
import { Icon, type IconProps } from "../icons.js";

const icon = (paths: ReactNode) =>
  function PlanIcon(props: IconProps) {
    return <Icon {...props}>{paths}</Icon>;
  };

export const CalendarIcon = icon(
  <>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </>,
);
export const DiceIcon = icon(
  <>
    <rect x="4" y="4" width="16" height="16" rx="3" />
    <path d="M8.5 8.5h.01M15.5 8.5h.01M12 12h.01M8.5 15.5h.01M15.5 15.5h.01" strokeWidth={3} />
  </>,
);
export const NoteIcon = icon(<path d="M5 4h10l4 4v12H5zM14 4v5h5M8 13h8M8 17h5" />);
export const ClockIcon = icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </>,
);
export const RulesIcon = icon(<path d="M4 6h10M4 12h7M4 18h10M17 4v6M14 7h6M16 15l2 2 3-3.5" />);
export const ImageIcon = icon(
  <>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <circle cx="9" cy="10" r="1.6" />
    <path d="m20.5 16-5-5L6 19.5" />
  </>,
);
