/**
 * What a public demo refuses (spec §1 "an optional demo mode"): anything that would lock the next
 * visitor out or take the demo apart for everyone until the next reset. Each refusal is a sentence the
 * UI and the API show as they are. The demo data itself may be edited freely: it resets on a schedule
 * (core/demo/demo-service.ts).
 */
import { ForbiddenError } from "../errors.js";

export const DEMO_REFUSALS = {
  deleteUser: "Deleting users is disabled in the demo",
  changeAdminLogin: "The demo administrator's login cannot be changed in the demo",
  deleteGroup: "Deleting groups is disabled in the demo",
  deleteHousehold: "Deleting households is disabled in the demo",
  resetLink: "Password reset links are disabled in the demo",
  restoreBackup: "Restoring backups is disabled in the demo",
  deleteBackup: "Deleting backups is disabled in the demo",
  uploadBackup: "Uploading backups is disabled in the demo",
} as const;

export type DemoRefusal = keyof typeof DEMO_REFUSALS;

/** Throws 403 with the refusal's sentence when the site runs as a demo. */
export function refuseInDemo(config: { demo: boolean }, what: DemoRefusal): void {
  if (config.demo) throw new ForbiddenError(DEMO_REFUSALS[what]);
}
