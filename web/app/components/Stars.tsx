/**
 * Ratings drawn as plain elements (decision 0172): a read-only row of five stars is one `<span>` (a star
 * mask repeated five times over a two-colour gradient), and the input is five native radios with their
 * labels. Mantine's Rating renders a component stack per star (an input, a label, a symbol and its icon,
 * each through Box and the styles API, twice per star for half steps) — 60 elements and most of a
 * millisecond per rating on a recipe page, more on a page of cards. The look is Mantine's: its sizes,
 * yellow stars over gray ones, the hovered star scaled up, the focus ring on the radio's label.
 */
import { Fragment, useId, type CSSProperties } from "react";

/** A five-pointed star in a 24-unit box, drawn with a round join by the CSS (stars.css). */
export const STAR_PATH =
  "M12 2.1L14.7 9.18L22.27 9.56L16.37 14.32L18.35 21.64L12 17.5L5.65 21.64L7.63 14.32L1.73 9.56L9.3 9.18Z";

export type StarSize = "xs" | "sm";

/** A value shown in half stars: 3.7 shows as 3.5, 3.8 as 4. */
export const toHalfStars = (v: number | null | undefined): number =>
  v ? Math.min(5, Math.max(0, Math.round(v * 2) / 2)) : 0;

export interface StarsProps {
  /** 0–5; shown to the nearest half star. */
  value: number | null | undefined;
  /** What a screen reader hears (the row is an image). */
  label: string;
  size?: StarSize;
  className?: string;
  "data-testid"?: string;
}

export function Stars({ value, label, size = "sm", className, ...rest }: StarsProps) {
  const style = { "--stars-fill": `${toHalfStars(value) * 20}%` } as CSSProperties;
  return (
    <span
      role="img"
      aria-label={label}
      className={`stars stars--${size}${className ? ` ${className}` : ""}`}
      style={style}
      data-testid={rest["data-testid"]}
    />
  );
}

export interface StarInputProps {
  /** 0 (none chosen) to 5. */
  value: number;
  onChange: (value: number) => void;
  /** The accessible name of star `n` ("4 of 5"). */
  starLabel: (n: number) => string;
  "aria-labelledby"?: string;
  "data-testid"?: string;
}

/** Five radios in a group: arrow keys move and choose, as in any radio group; a click on a star chooses it. */
export function StarInput({ value, onChange, starLabel, ...rest }: StarInputProps) {
  const id = useId();
  return (
    <div
      role="radiogroup"
      className="star-input"
      aria-labelledby={rest["aria-labelledby"]}
      data-testid={rest["data-testid"]}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <Fragment key={n}>
          <input
            type="radio"
            className="star-input__radio"
            id={`${id}-${n}`}
            name={id}
            value={n}
            checked={value === n}
            onChange={() => onChange(n)}
            aria-label={starLabel(n)}
          />
          <label htmlFor={`${id}-${n}`} className="star-input__star" data-filled={n <= value || undefined}>
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d={STAR_PATH} />
            </svg>
          </label>
        </Fragment>
      ))}
    </div>
  );
}
