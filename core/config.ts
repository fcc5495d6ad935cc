/**
 * Effective configuration, read from environment variables with Mealie's names where Mealie has one
 * (ARCHITECTURE §7), so that a Mealie user's settings carry over.
 */
import { z } from "zod";

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === "boolean" ? v : /^(1|true|yes|on)$/i.test(v.trim())));
const int = z.union([z.number(), z.string()]).transform((v) => Number.parseInt(String(v), 10));
const list = z.string().transform((v) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
);

export const ConfigSchema = z.object({
  dataDir: z.string().default("./data"),
  port: int.default(9000),
  host: z.string().default("127.0.0.1"),
  baseUrl: z.string().default("http://localhost:9000"),
  production: bool.default(true),
  allowSignup: bool.default(false),
  allowPasswordLogin: bool.default(true),
  /** Session token lifetime in hours (Mealie: TOKEN_TIME). */
  tokenTimeHours: int.default(48),
  maxLoginAttempts: int.default(5),
  /** Lockout duration in hours (Mealie: SECURITY_USER_LOCKOUT_TIME). */
  lockoutHours: int.default(24),
  /** Max request body in bytes for JSON; uploads have their own cap. */
  maxJsonBody: int.default(2 * 1024 * 1024),
  /** Local time of the daily jobs, "HH:MM" (Mealie: DAILY_SCHEDULE_TIME). */
  dailyScheduleTime: z
    .string()
    .regex(/^([01]?\d|2[0-3]):[0-5]\d$/, "DAILY_SCHEDULE_TIME must be HH:MM")
    .default("23:45"),
  maxUploadBytes: int.default(50 * 1024 * 1024),
  /** Largest migration upload (an app's export, a Mealie backup); refused while it streams in. */
  maxMigrationBytes: int.default(1024 * 1024 * 1024),
  /** Local time of the nightly backup, "HH:MM", or "" for none (LARDER_BACKUP_SCHEDULE; decision 0072). */
  backupSchedule: z
    .string()
    .regex(/^(|([01]?\d|2[0-3]):[0-5]\d)$/, "LARDER_BACKUP_SCHEDULE must be HH:MM or empty")
    .default(""),
  /** How many backups the nightly job keeps (LARDER_BACKUP_KEEP). */
  backupKeep: int.default(7),
  /** Commit each recipe change when the data folder is a git repository (LARDER_GIT_AUTOCOMMIT; decision 0074). */
  gitAutoCommit: bool.default(false),
  /** bcrypt cost; tests lower it. */
  bcryptRounds: int.default(12),
  fetchAllow: list.default([]),
  /**
   * Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR ranges, comma-separated;
   * LARDER_TRUSTED_PROXIES). Empty: the socket's address is the client's, whatever the header says.
   */
  trustedProxies: list.default([]),
  /** Third-party plugins: npm package names or paths (relative to the working directory), comma-separated. */
  plugins: list.default([]),
  fetchUserAgent: z.string().default("Larder/0.1 (+https://github.com/larder)"),
  /** Recipe page imports: how long a page may take to arrive (Mealie: 15 s, then 408). */
  importTimeoutMs: int.default(15_000),
  demo: bool.default(false),
  /** Demo mode: restore the demo's baseline every N minutes (LARDER_DEMO_RESET_MINUTES; 0 = never). */
  demoResetMinutes: int.default(60),
  theme: z.record(z.string(), z.string()).default({}),
  smtp: z.record(z.string(), z.string()).default({}),
  ldap: z.record(z.string(), z.string()).default({}),
  oidc: z.record(z.string(), z.string()).default({}),
  openai: z.record(z.string(), z.string()).default({}),
  /**
   * Notifier API bases (LARDER_NOTIFY_API_TGRAM, _DISCORD, _SLACK): a self-hosted Telegram Bot API
   * server, a relay, or a local stand-in in tests. Default: the services' public addresses.
   */
  notifyApi: z.record(z.string(), z.string()).default({}),
});
export type Config = z.infer<typeof ConfigSchema>;

const PREFIXED: Record<string, "theme" | "smtp" | "ldap" | "oidc" | "openai" | "notifyApi"> = {
  THEME_: "theme",
  SMTP_: "smtp",
  LDAP_: "ldap",
  OIDC_: "oidc",
  OPENAI_: "openai",
  LARDER_NOTIFY_API_: "notifyApi",
};

/** Build the configuration from an environment (default: process.env) plus explicit overrides. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<z.input<typeof ConfigSchema>> = {},
): Config {
  const raw: Record<string, unknown> = {
    dataDir: env.LARDER_DATA,
    port: env.LARDER_PORT ?? env.API_PORT,
    host: env.LARDER_HOST,
    baseUrl: env.BASE_URL,
    production: env.PRODUCTION,
    allowSignup: env.ALLOW_SIGNUP,
    allowPasswordLogin: env.ALLOW_PASSWORD_LOGIN,
    tokenTimeHours: env.TOKEN_TIME,
    maxLoginAttempts: env.SECURITY_MAX_LOGIN_ATTEMPTS,
    lockoutHours: env.SECURITY_USER_LOCKOUT_TIME,
    bcryptRounds: env.LARDER_BCRYPT_ROUNDS,
    fetchAllow: env.LARDER_FETCH_ALLOW,
    trustedProxies: env.LARDER_TRUSTED_PROXIES,
    plugins: env.LARDER_PLUGINS,
    fetchUserAgent: env.LARDER_USER_AGENT,
    importTimeoutMs: env.LARDER_IMPORT_TIMEOUT_MS,
    demo: env.LARDER_DEMO,
    demoResetMinutes: env.LARDER_DEMO_RESET_MINUTES,
    maxMigrationBytes: env.LARDER_MAX_MIGRATION_BYTES,
    dailyScheduleTime: env.DAILY_SCHEDULE_TIME,
    backupSchedule: env.LARDER_BACKUP_SCHEDULE,
    backupKeep: env.LARDER_BACKUP_KEEP,
    gitAutoCommit: env.LARDER_GIT_AUTOCOMMIT,
  };
  for (const [prefix, key] of Object.entries(PREFIXED)) {
    const group: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) {
      if (k.startsWith(prefix) && v !== undefined) group[k.slice(prefix.length)] = v;
    }
    raw[key] = group;
  }
  for (const k of Object.keys(raw)) if (raw[k] === undefined || raw[k] === "") delete raw[k];
  // jitless: read once per process, so zod compiling a parser for it (on a first parse) never pays off.
  return ConfigSchema.parse({ ...raw, ...overrides }, { jitless: true });
}

const SECRET_HINT = /(PASSWORD|SECRET|KEY|TOKEN)/i;
/** A password written into a URL ("http://user:pass@host/", an SMTP or AI endpoint), masked where it stands. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^/?#:@\s]*:)[^/?#@\s]*@/gi;
const maskUrl = (v: unknown) => (typeof v === "string" ? v.replace(URL_PASSWORD, "$1********@") : v);

/** The configuration with secrets masked, for `larder config` and the admin about page. */
export function maskedConfig(config: Config): Record<string, unknown> {
  const mask = (rec: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(rec).map(([k, v]) => [k, SECRET_HINT.test(k) ? "********" : maskUrl(v)]),
    );
  return {
    ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, maskUrl(v)])),
    smtp: mask(config.smtp),
    ldap: mask(config.ldap),
    oidc: mask(config.oidc),
    openai: mask(config.openai),
    notifyApi: mask(config.notifyApi),
  };
}
