/**
 * What the admin's about page reports (mealie-api-notes §4.13): counts across all groups, whether
 * e-mail, LDAP, OIDC and BASE_URL are set up, and anonymous usage figures (`/admin/analytics`).
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { adminOf } from "../users/accounts-service.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "email" | "groups" | "recipes" | "users">;

const truthy = (v: string | undefined) => /^(1|true|yes|on)$/i.test(v?.trim() ?? "");
const set = (v: string | undefined) => (v?.trim() ?? "") !== "";

export interface AppStatistics {
  totalRecipes: number;
  uncategorizedRecipes: number;
  untaggedRecipes: number;
  totalUsers: number;
  totalHouseholds: number;
  totalGroups: number;
}

export interface AppCheck {
  emailReady: boolean;
  ldapReady: boolean;
  oidcReady: boolean;
  baseUrlSet: boolean;
  isUpToDate: boolean;
}

export class SiteReport {
  constructor(private readonly larder: Deps) {}

  /** GET /admin/about/statistics. */
  statistics(actor: Actor): AppStatistics {
    adminOf(actor);
    const recipes = this.larder.recipes.store.all();
    const groups = this.larder.groups.all();
    return {
      totalRecipes: recipes.length,
      uncategorizedRecipes: recipes.filter((e) => e.doc.categories.length === 0).length,
      untaggedRecipes: recipes.filter((e) => e.doc.tags.length === 0).length,
      totalUsers: this.larder.users.all().length,
      totalHouseholds: groups.reduce((n, g) => n + g.households.size, 0),
      totalGroups: groups.length,
    };
  }

  /** LDAP sign-in is configured (LDAP_AUTH_ENABLED with a server and a base DN). */
  ldapReady(): boolean {
    const l = this.larder.config.ldap;
    return truthy(l.AUTH_ENABLED) && set(l.SERVER_URL) && set(l.BASE_DN);
  }

  /** OIDC sign-in is configured (OIDC_AUTH_ENABLED with a provider and a client). */
  oidcReady(): boolean {
    const o = this.larder.config.oidc;
    return truthy(o.AUTH_ENABLED) && set(o.CONFIGURATION_URL) && set(o.CLIENT_ID) && set(o.CLIENT_SECRET);
  }

  /** GET /admin/about/check. `isUpToDate` is true: Deps does not phone home to compare versions. */
  check(actor: Actor): AppCheck {
    adminOf(actor);
    return {
      emailReady: this.larder.email.ready,
      ldapReady: this.ldapReady(),
      oidcReady: this.oidcReady(),
      baseUrlSet: !/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/i.test(
        this.larder.config.baseUrl.trim(),
      ),
      isUpToDate: true,
    };
  }

  /** GET /admin/analytics: counts only, nothing that identifies anyone; never sent anywhere. */
  analytics(actor: Actor): Record<string, string | number | boolean> {
    const stats = this.statistics(actor);
    const c = this.larder.config;
    return {
      databaseType: "files",
      usingEmail: this.larder.email.ready,
      usingLdap: this.ldapReady(),
      usingOidc: this.oidcReady(),
      allowSignup: c.allowSignup,
      users: stats.totalUsers,
      groups: stats.totalGroups,
      households: stats.totalHouseholds,
      recipes: stats.totalRecipes,
    };
  }
}
