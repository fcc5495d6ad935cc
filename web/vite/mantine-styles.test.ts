import { describe, expect, it } from "vitest";
import { missingMantineStyles } from "./mantine-styles.js";

const mod = (name: string, classes: string[]) =>
  [
    `node_modules/@mantine/core/esm/components/${name}/${name}.module.mjs`,
    `var m = { ${classes.map((c, i) => `"k${i}": "${c}"`).join(", ")} };`,
  ] as const;

describe("the check that every Mantine component in the bundle has its styles", () => {
  const all = ".m_aa1{color:red}.m_bb2{margin:0}.m_cc3:hover{color:blue}";

  it("names the stylesheet of a component whose styled classes the bundle's CSS lacks", () => {
    const modules = new Map([mod("Button", ["m_aa1"]), mod("Tooltip", ["m_bb2", "m_cc3"])]);
    expect(missingMantineStyles(modules, ".m_aa1{color:red}", all)).toEqual(["Tooltip"]);
    expect(missingMantineStyles(modules, ".m_aa1{}.m_bb2{}", all)).toEqual(["Tooltip"]);
    expect(missingMantineStyles(modules, "", all)).toEqual(["Button", "Tooltip"]);
  });

  it("passes when every styled class is defined, and ignores classes no Mantine stylesheet styles", () => {
    const modules = new Map([mod("Loader", ["m_aa1", "m_dd4"]), ["web/app/other.mjs", '"m_bb2"'] as const]);
    expect(missingMantineStyles(modules, ".m_aa1{color:red}", all)).toEqual([]);
  });
});
