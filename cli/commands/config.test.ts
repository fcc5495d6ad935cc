import { describe, expect, it } from "vitest";
import { json, larder } from "../testing/run-cli.js";

describe("larder config", () => {
  it("prints the effective configuration as JSON with secrets masked", async () => {
    const res = await larder(["config", "--json", "--data", "/srv/recipes"], {
      env: {
        SMTP_HOST: "mail.example.org",
        SMTP_PASSWORD: "hunter2",
        OIDC_CLIENT_SECRET: "s3cret",
        LARDER_PORT: "9123",
      },
    });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const config = json<{
      dataDir: string;
      port: number;
      smtp: Record<string, string>;
      oidc: Record<string, string>;
    }>(res);
    expect(config.dataDir).toBe("/srv/recipes");
    expect(config.port).toBe(9123);
    expect(config.smtp).toEqual({ HOST: "mail.example.org", PASSWORD: "********" });
    expect(config.oidc.CLIENT_SECRET).toBe("********");
    expect(res.stdout).not.toContain("hunter2");
  });

  it("masks a password written into a URL, keeping the rest of the URL", async () => {
    const res = await larder(["config", "--json"], {
      env: {
        BASE_URL: "https://ann:basicpw@recipes.example.org/",
        OPENAI_BASE_URL: "http://u:tok3n@ai.local/v1",
      },
    });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const config = json<{ baseUrl: string; openai: Record<string, string> }>(res);
    expect(config.baseUrl).toBe("https://ann:********@recipes.example.org/");
    expect(Object.values(config.openai)).toContain("http://u:********@ai.local/v1");
    expect(res.stdout).not.toMatch(/basicpw|tok3n/);
  });

  it("prints a key/value table for people", async () => {
    const res = await larder(["config"], { env: { SMTP_PASSWORD: "hunter2", LARDER_DATA: "/srv/x" } });
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toMatch(/^key\s+value$/m);
    expect(res.stdout).toMatch(/^dataDir\s+\/srv\/x$/m);
    expect(res.stdout).toMatch(/^smtp\.PASSWORD\s+\*{8}$/m);
    expect(res.stdout).not.toContain("hunter2");
  });
});
