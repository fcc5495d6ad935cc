/**
 * The versions app info reports: no imports, so the UI's server code (web/app) reads the same
 * constants as /api/app/about without pulling core into its bundle.
 */
/** The Mealie API version Larder implements: clients gate features on it (ARCHITECTURE §8). */
export const MEALIE_API_VERSION = "v3.19.2";
export const LARDER_VERSION = "0.1.0";
