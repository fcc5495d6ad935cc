/**
 * A recipe image from /api/media with an icon fallback when the recipe has none or it fails to load.
 * The fallback also works when the image failed before hydration (checked on mount).
 */
import { useEffect, useRef, useState } from "react";
import { recipeImageUrl, type ImageSize } from "../lib/format.js";
import { DishIcon } from "./icons.js";

export interface RecipeImageProps {
  recipeId: string;
  /** The recipe's `image` field: null = no image; otherwise a cache key. */
  image: string | null;
  size: ImageSize;
  alt: string;
  className?: string;
  eager?: boolean;
}

export function RecipeImage({ recipeId, image, size, alt, className, eager }: RecipeImageProps) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  useEffect(() => setFailed(false), [recipeId, image]);

  const classes = ["recipe-image", className].filter(Boolean).join(" ");
  if (!image || failed) {
    return (
      // A decorative image (alt="") is hidden from assistive technology, as an <img alt=""> would be.
      <div
        className={`${classes} recipe-image--fallback`}
        {...(alt ? { role: "img", "aria-label": alt } : { "aria-hidden": true })}
      >
        <DishIcon />
      </div>
    );
  }
  return (
    <img
      ref={ref}
      className={classes}
      src={recipeImageUrl(recipeId, size, image)}
      alt={alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
