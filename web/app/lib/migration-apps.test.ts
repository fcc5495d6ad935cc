import { describe, expect, it } from "vitest";
import { migrationAppOf } from "./migration-apps.js";

describe("migrationAppOf", () => {
  it("names the app of a migration report by its product name", () => {
    expect(migrationAppOf("Copymethat Migration")).toBe("Copy Me That");
    expect(migrationAppOf("Mealie_Alpha Migration")).toBe("Mealie (pre-v1)");
    expect(migrationAppOf("Mealie_Backup Migration")).toBe("Mealie backup");
  });

  it("leaves any other report's name alone", () => {
    expect(migrationAppOf("Bulk Export")).toBeNull();
    expect(migrationAppOf("Constructor Migration")).toBeNull();
    expect(migrationAppOf("nextcloud")).toBeNull();
  });
});
