import { describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "react-router";
import { appInfo as apiAppInfo, themeOf as apiThemeOf } from "../../api/routes/app.js";
import { appInfo, themeOf } from "./app-info.server.js";
import { CAPABILITIES } from "./capabilities.js";
import { COMPLETE_LANGUAGES } from "./i18n.js";
import { detectLanguage, languageList, percentTranslated } from "./i18n.server.js";
import { drawerLinks, visibleLinks } from "./nav.js";
import { parseHomeQuery, toRecipeListQuery, toSearchParams } from "./recipe-list-query.js";
import { parseRecipeListPrefs } from "./recipe-list-prefs.js";
import { PASSWORD_MIN, check, passwordsMatch, rules } from "./validation.js";
import { shadesOf } from "./theme.js";
import { requireGuards } from "./guards.server.js";

type Larder = AppLoadContext["larder"];

function fakeLarder(config: { theme?: Record<string, string>; oidc?: Record<string, string> }): Larder {
  return {
    config: {
      theme: config.theme ?? {},
      oidc: config.oidc ?? {},
      openai: {},
      demo: false,
      allowSignup: false,
      allowPasswordLogin: true,
      production: false,
      baseUrl: "http://localhost:9000",
      tokenTimeHours: 48,
    },
    site: { data: { defaultGroup: "home" } },
    groups: { bySlugOrNull: () => null, all: () => [] },
    directory: { defaultGroup: () => null, householdsOf: () => [] },
    imports: { imageServicesEnabled: () => false },
  } as unknown as Larder;
}

describe("app info for the UI", () => {
  it("answers the theme exactly as GET /api/app/about/theme", () => {
    const larder = fakeLarder({
      theme: { LIGHT_PRIMARY: "#123456", DARK_ERROR: " #abc ", LIGHT_INFO: "red" },
    });
    expect(themeOf(larder)).toEqual(apiThemeOf(larder as never));
  });

  it("agrees with GET /api/app/about on OIDC and login switches", () => {
    for (const oidc of [
      {} as Record<string, string>,
      {
        AUTH_ENABLED: "true",
        CONFIGURATION_URL: "https://idp/.well-known",
        CLIENT_ID: "larder",
        PROVIDER_NAME: "Keycloak",
        AUTO_REDIRECT: "yes",
      },
      { AUTH_ENABLED: "true", CLIENT_ID: "larder" },
    ]) {
      const larder = fakeLarder({ oidc });
      const ui = appInfo(larder);
      const api = apiAppInfo(larder as never);
      expect(ui).toMatchObject({
        enableOidc: api.enableOidc,
        oidcRedirect: api.oidcRedirect,
        oidcProviderName: api.oidcProviderName,
        allowPasswordLogin: api.allowPasswordLogin,
        enableOpenaiImageServices: api.enableOpenaiImageServices,
      });
    }
  });

  it("makes ten shades with the theme colour in the middle", () => {
    const shades = shadesOf("#E58325");
    expect(shades).toHaveLength(10);
    expect(shades[6]).toBe("#e58325");
  });
});

describe("i18n on the server", () => {
  const req = (headers: Record<string, string>) => new Request("http://x/", { headers });

  it("prefers the lang cookie, then Accept-Language by quality, then English", () => {
    expect(detectLanguage(req({ Cookie: "lang=he-IL", "Accept-Language": "de-DE" }))).toBe("he-IL");
    expect(detectLanguage(req({ Cookie: "lang=xx-XX", "Accept-Language": "fr;q=0.5, de-AT;q=0.9" }))).toBe(
      "de-DE",
    );
    expect(detectLanguage(req({ "Accept-Language": "ar" }))).toBe("ar-SA");
    expect(detectLanguage(req({ "Accept-Language": "ko-KR" }))).toBe("en-US");
  });

  it("picks the French with its own catalogue for a bare language tag, a variant when asked for", () => {
    expect(detectLanguage(req({ "Accept-Language": "fr" }))).toBe("fr-FR");
    expect(detectLanguage(req({ "Accept-Language": "fr-CA, fr;q=0.8" }))).toBe("fr-CA");
    expect(detectLanguage(req({ "Accept-Language": "es-MX" }))).toBe("es-ES");
  });

  it("counts the complete languages at 100, a variant through its sibling, an untranslated one at 0", () => {
    for (const lang of COMPLETE_LANGUAGES) expect(percentTranslated(lang), lang).toBe(100);
    expect(percentTranslated("fr-CA")).toBe(percentTranslated("fr-FR"));
    expect(percentTranslated("en-GB")).toBe(100);
    expect(percentTranslated("ko-KR")).toBe(0);
    const list = languageList();
    expect(list).toHaveLength(42);
    expect(list[0]).toMatchObject({ code: "en-US", progress: 100 });
    expect(list.find((l) => l.code === "ar-SA")).toMatchObject({ dir: "rtl", progress: 100 });
  });
});

describe("the drawer's links", () => {
  const links = drawerLinks("home", [{ name: "Weeknights", slug: "weeknights" }]);

  it("hides restricted links outside the user's own group and screens that have not landed", () => {
    const top = visibleLinks(links.top, { ownGroup: false, admin: false }).map((l) => l.key);
    expect(top).toEqual(["recipes"]);
    const all = { ...CAPABILITIES, mealPlanner: true, shoppingLists: true };
    expect(visibleLinks(links.top, { ownGroup: true, admin: false }, all).map((l) => l.key)).toEqual([
      "recipes",
      "planner",
      "shopping",
      "timeline",
    ]);
  });

  it("keeps cookbooks as children and shows Settings to admins only", () => {
    const [cookbooks] = visibleLinks(links.secondary, { ownGroup: false, admin: false });
    // Cookbook pages have landed: each cookbook opens its page; visitors get no "manage" link.
    expect(cookbooks.children?.map((c) => c.to)).toEqual(["/g/home/cookbooks/weeknights"]);
    const [mine] = visibleLinks(links.secondary, { ownGroup: true, admin: false });
    expect(mine.children?.map((c) => c.to)).toEqual(["/g/home/cookbooks/weeknights", "/g/home/cookbooks"]);
    const withSettings = { ...CAPABILITIES, adminSettings: true };
    expect(visibleLinks(links.bottom, { ownGroup: true, admin: false }, withSettings)).toEqual([]);
    expect(
      visibleLinks(links.bottom, { ownGroup: true, admin: true }, withSettings).map((l) => l.key),
    ).toEqual(["settings"]);
  });
});

describe("the group home's query string", () => {
  it("reads repeated and comma-separated filters and writes one canonical form", () => {
    const q = parseHomeQuery(
      new URLSearchParams(
        "tags=dinner,soup&tags=dinner&requireAllTags=true&orderBy=rating&orderDirection=desc&page=2",
      ),
    );
    expect(q.filters.tags).toEqual(["dinner", "soup"]);
    expect(q.requireAll.tags).toBe(true);
    expect(toSearchParams(q).toString()).toBe(
      "tags=dinner%2Csoup&requireAllTags=true&orderBy=rating&orderDirection=desc&page=2",
    );
  });

  it("asks core for 30 a page, name ascending by default, relevance while searching, a seed for random", () => {
    expect(toRecipeListQuery(parseHomeQuery(new URLSearchParams("")))).toMatchObject({
      page: 1,
      perPage: 30,
      orderBy: "name",
      orderDirection: "asc",
    });
    expect(toRecipeListQuery(parseHomeQuery(new URLSearchParams("search=soup"))).orderBy).toBeUndefined();
    const random = toRecipeListQuery(parseHomeQuery(new URLSearchParams("orderBy=random&seed=42")));
    expect([random.orderBy, random.paginationSeed]).toEqual(["random", "42"]);
  });

  it("ignores an unknown order and a hostile seed", () => {
    const q = parseHomeQuery(new URLSearchParams("orderBy=password&seed=<script>"));
    expect(q.orderBy).toBeNull();
    expect(q.seed).toBeNull();
  });

  it("falls back to the spec §3 defaults for damaged stored preferences", () => {
    expect(parseRecipeListPrefs('{"orderBy":"nope","useMobileCards":true}')).toEqual({
      orderBy: "name",
      orderDirection: "asc",
      filterNull: false,
      useMobileCards: true,
    });
    expect(parseRecipeListPrefs("{not json")).toMatchObject({ orderBy: "name" });
  });
});

describe("validation rules (spec §5)", () => {
  it("names each problem by its catalogue key, empty values passing length rules", () => {
    expect(check("", rules.required)).toEqual({ key: "validation.required" });
    expect(check("a b", rules.noWhitespace)).toEqual({ key: "validation.noWhitespace" });
    expect(check("x@y", rules.email)).toEqual({ key: "validation.email" });
    expect(check("ftp://x", rules.url)).toEqual({ key: "validation.url" });
    expect(check("short", rules.minLength(PASSWORD_MIN))).toEqual({
      key: "validation.minLength",
      values: { n: 8 },
    });
    expect(check("", rules.minLength(8), rules.maxLength(2))).toBeNull();
    expect(passwordsMatch("a", "b")).toEqual({ key: "validation.passwordsMatch" });
  });
});

describe("route guards (spec §6)", () => {
  const user = {
    id: "u1",
    groupId: "g1",
    admin: false,
    advanced: false,
    canInvite: false,
    canManage: true,
    canManageHousehold: false,
    canOrganize: false,
  };
  const context = (warn = vi.fn()) =>
    ({
      larder: {
        log: { warn },
        auth: { authenticateToken: async () => ({ kind: "user", user }) },
        groups: { byId: () => ({ slug: "home" }) },
        directory: { groupById: () => ({ slug: "home", name: "Home" }) },
      },
    }) as unknown as AppLoadContext;
  const request = new Request("http://x/g/home/admin", { headers: { Cookie: "mealie.access_token=t" } });

  it("lets a user with the flags through", async () => {
    const actor = await requireGuards(
      { request, context: context(), params: { groupSlug: "home" } },
      { canManage: true, groupMatch: true },
    );
    expect(actor.user.id).toBe("u1");
  });

  it("sends anyone else to / and logs a warning", async () => {
    const warn = vi.fn();
    const refused = await requireGuards(
      { request, context: context(warn), params: { groupSlug: "other" } },
      { groupMatch: true },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).headers.get("Location")).toBe("/");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("guard groupMatch failed"));
  });
});
