/**
 * A recipe image from /api/media with an icon fallback when the recipe has none or it fails to load.
 * The fallback also works when the image failed before hydration (checked on mount).
 *
 * The recipe page's picture is its largest paint. Over HTTP/1.1 a browser fetches an image at low
 * priority behind the page's scripts and catalogues, so on a slow phone connection it came seconds
 * after the text (decision 0223). `priority` asks for it first; `sizes` lets a small screen take the
 * 640-pixel rendering instead of the original.
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
  /** The page's main picture: loaded eagerly and before the page's other requests. */
  priority?: boolean;
  /** The displayed width (the `sizes` attribute), with size "original": a small screen takes min-original. */
  sizes?: string;
}

/** The nominal widths of the renderings (min-original is at most 640 wide; original is the upload's own). */
const MIN_WIDTH = 640;
const ORIGINAL_WIDTH = 1200;

export function RecipeImage({
  recipeId,
  image,
  size,
  alt,
  className,
  eager,
  priority,
  sizes,
}: RecipeImageProps) {
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
  const src = recipeImageUrl(recipeId, size, image);
  const srcSet =
    sizes && size === "original"
      ? `${recipeImageUrl(recipeId, "min-original", image)} ${MIN_WIDTH}w, ${src} ${ORIGINAL_WIDTH}w`
      : undefined;
  return (
    <img
      ref={ref}
      className={classes}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      loading={eager || priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? undefined : "async"}
      onError={() => setFailed(true)}
    />
  );
}
