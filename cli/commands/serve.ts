/**
 * `larder serve`: open the folder with watchers on, hold its lock (pid, port, local admin token) so CLI
 * commands go through this server, serve the API and the UI, and shut down cleanly on SIGINT/SIGTERM.
 */
import type { Command } from "commander";
import type { Larder } from "../../core/larder.js";
import { withLogFile } from "../../core/log/file-log.js";
import { consoleLogger } from "../../core/log/logger.js";
import { DataFolder, findTemplatesDir, initDataFolder } from "../../core/storage/data-folder.js";
import { FIRST_ADMIN } from "../../core/users/first-admin.js";
import { startDiskThread } from "../../core/storage/disk-thread.js";
import { acquireLock, LockHeldError, type HeldLock } from "../../core/storage/lock.js";
import {
  configFor,
  dataOption,
  isLarderFolder,
  keepProcessAlive,
  refuseReadOnly,
  resolveDataDir,
} from "../context.js";
import { DEMO_PASSWORD, ensureDemoLogin, prepareDemoFolder, seedNewDemo } from "../demo.js";
import { CliError, EXIT, fail, isJsonMode, printJson, printLine, printStatus } from "../output.js";
import { builtinPlugins } from "../../plugins/builtins.js";
import { useServingHeapGrowth } from "../serving-heap.js";

interface ServeOptions {
  data?: string;
  port?: string;
  host?: string;
  demo?: boolean;
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve the API and the web UI for a data folder")
    .addOption(dataOption("created if missing or empty"))
    .option("--port <n>", "port to listen on (default: $LARDER_PORT or 9000)")
    .option("--host <host>", "address to bind (default: $LARDER_HOST or 127.0.0.1)")
    .option("--demo", "serve a copy of the demo data in ./.demo (copied on first run)")
    .action((opts: ServeOptions) => serve(opts));
}

function parsePort(value: string | undefined, from?: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  // Not 0 ("any free port"): the lock must name the real port for CLI commands to find the server.
  if (!/^\d+$/.test(value) || port < 1 || port > 65535)
    throw new CliError(`Invalid port${from ? ` in ${from}` : ""}: ${value} (1-65535)`, EXIT.invalid);
  return port;
}

/** `word` as a shell reads it back: quoted when it holds a space or another special character. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

async function serve(opts: ServeOptions): Promise<void> {
  // React (and the libraries of the UI's server build) choose their development or production code
  // when first loaded, from NODE_ENV: unset, a served page rendered with React's development build,
  // several times slower (a profile under load showed react-dom-server.node.development.js). A
  // server is production unless someone says otherwise.
  process.env.NODE_ENV ??= "production";
  if (opts.demo && opts.data)
    throw new CliError("--demo serves ./.demo; it cannot be combined with --data", EXIT.invalid);
  // The environment's port is checked as --port is (the configuration would take "abc" as NaN).
  const port =
    parsePort(opts.port) ??
    parsePort(process.env.LARDER_PORT, "LARDER_PORT") ??
    parsePort(process.env.LARDER_PORT ? undefined : process.env.API_PORT, "API_PORT");
  const demo = opts.demo ? await prepareDemoFolder() : null;
  const dataDir = demo?.dir ?? resolveDataDir(opts.data);
  const config = configFor(dataDir, {
    ...(port === undefined ? {} : { port }),
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.demo ? { demo: true } : {}),
  });

  // A new folder gets its skeleton before the lock: the lock lives in `.larder/`, and core refuses to
  // initialise a folder that already has anything in it.
  const fresh = !isLarderFolder(dataDir);
  if (fresh) await initDataFolder(dataDir, { templatesDir: await findTemplatesDir() });

  // Its start overlaps the rest of the start (decision 0300).
  startDiskThread();
  let lock: HeldLock;
  try {
    lock = await acquireLock(dataDir, {
      port: config.port,
      host: config.host,
      onLost: (holder) =>
        consoleLogger().error(
          `the folder's lock (.larder/lock) now names ${holder ? `another process (pid ${holder.pid})` : "nothing this server can read"}: two servers on one folder overwrite each other's changes; stop one of them`,
        ),
    });
  } catch (e) {
    if (e instanceof LockHeldError) throw new CliError(e.message, EXIT.failure);
    refuseReadOnly(e, dataDir);
    throw e;
  }
  // Also into .larder/logs, which the Maintenance page shows and cleans.
  const log = withLogFile(consoleLogger(), new DataFolder(dataDir).logsDir);
  let larder: Larder | null = null;
  let server: { url: string; close(): Promise<void> } | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C means "now": the lock is left for the next start to find stale.
      process.exit(EXIT.failure);
    }
    stopping = true;
    log.info(`${signal}: shutting down`);
    let code: number = EXIT.ok;
    try {
      await server?.close();
      await larder?.close();
    } catch (e) {
      code = fail(e);
    } finally {
      await lock.release().catch(() => undefined);
    }
    process.exit(code);
  };

  try {
    // Loaded here so that other commands never pay for the HTTP stack and Remix; asked for before the
    // folder opens, so that its modules load while the open waits on the disk (decision 0134).
    const http = Promise.all([
      import("../../web/server/server.js"),
      import("../../web/server/crash-guard.js"),
    ]);
    http.catch(() => undefined);
    const { Larder } = await import("../../core/larder.js");
    larder = await Larder.open(config, { log, watch: true, plugins: builtinPlugins });
    useServingHeapGrowth(larder.recipes.stats().recipes);
    // The CLI proves it can read `.larder/` with this token and then acts as the first admin.
    larder.auth.setLocalAdminToken(lock.info.token);
    const demoLogin = demo ? await ensureDemoLogin(larder) : null;
    if (demo?.copied) await seedNewDemo(larder);
    const [{ startServer }, { installCrashGuard }] = await http;
    installCrashGuard(larder.log);
    server = await startServer({ larder, port: config.port, host: config.host });
    larder.recipes.lister.buildInBackground();
    // process.on, not once: the second signal must reach shutdown() to force the exit.
    process.on("SIGINT", () => void shutdown("SIGINT"));
    process.on("SIGTERM", () => void shutdown("SIGTERM"));
    keepProcessAlive();

    const login = demoLogin
      ? { username: demoLogin.username, email: demoLogin.email, password: DEMO_PASSWORD }
      : fresh
        ? { username: FIRST_ADMIN.username, email: FIRST_ADMIN.email, password: FIRST_ADMIN.password }
        : null;
    const noPassword = login ? null : larder.auth.adminWithoutPassword();
    if (noPassword) log.warn(`no admin can sign in with a password: ${noPassword} has none on this machine`);
    const unreadable = larder.auth.credentialsUnreadable();
    const unreadableLine = unreadable
      ? `${unreadable.path} cannot be read (${unreadable.message}): nobody can sign in with a password until it is fixed or restored from a backup; it is never overwritten`
      : null;
    if (isJsonMode()) {
      printJson({ url: server.url, dataDir, pid: process.pid, demo: Boolean(demo), login });
      return;
    }
    await printStatus("ok", `Larder is serving ${dataDir} at ${server.url}`);
    if (login) {
      const unchanged = demoLogin && !demoLogin.passwordSet ? " (unless you changed it)" : "";
      printLine(
        `Log in as ${login.username} (or ${login.email}) with password ${login.password}${unchanged}`,
      );
    }
    if (unreadableLine) printLine(unreadableLine);
    if (noPassword)
      printLine(
        `No admin has a password here (passwords stay in .larder/, out of git): set one with ` +
          `larder user passwd ${shellWord(noPassword)} --data ${shellWord(dataDir)}`,
      );
    printLine("Press Ctrl-C to stop.");
  } catch (e) {
    await server?.close().catch(() => undefined);
    await larder?.close().catch(() => undefined);
    await lock.release();
    throw e;
  }
}
