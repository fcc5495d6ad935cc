/**
 * `larder tui` (and `larder` alone on a terminal): the interactive app. React and Ink load only here,
 * so scripts never pay for them.
 */
import type { Command } from "commander";
import { resolveDataDir, dataOption } from "../context.js";
import { CliError, EXIT } from "../output.js";

/** Plain mode for screen readers: `--plain`, or LARDER_PLAIN=1 in the environment. */
export function plainWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    Boolean(flag) || (env.LARDER_PLAIN !== undefined && env.LARDER_PLAIN !== "" && env.LARDER_PLAIN !== "0")
  );
}

export async function runTui(opts: { data?: string; plain?: boolean }): Promise<void> {
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new CliError(
      "larder tui needs a terminal (stdin and stdout); scripts can use the other commands",
      EXIT.invalid,
    );
  const plain = plainWanted(opts.plain);
  const [{ render }, { createElement }, { App }, { withSource }] = await Promise.all([
    import("ink"),
    import("react"),
    import("./app.js"),
    import("./source.js"),
  ]);
  await withSource(resolveDataDir(opts.data), async (source) => {
    // The alternate screen gives the app the whole terminal and gives the shell back untouched on exit;
    // plain mode stays in the normal scrollback, where a screen reader can go back over it.
    const alt = !plain;
    if (alt) process.stdout.write("\x1b[?1049h\x1b[H");
    try {
      const instance = render(createElement(App, { source, plain }), {
        exitOnCtrlC: true,
        patchConsole: true,
      });
      // A dropped SSH connection or a closed terminal: end the app normally, so the folder's lock is
      // released, instead of dying on the write error (EIO) to a terminal that is gone.
      const hangUp = () => instance.unmount();
      process.stdin.on("error", hangUp);
      process.on("SIGHUP", hangUp);
      process.stdout.on("error", hangUp);
      // The folder opens behind the first frame: if it cannot, the app ends with the reason, and the
      // command fails with it as it did when the folder opened first.
      const opening: { failed: boolean; error?: unknown } = { failed: false };
      source.ready.catch((error: unknown) => {
        opening.failed = true;
        opening.error = error;
        instance.unmount();
      });
      try {
        await instance.waitUntilExit();
      } finally {
        process.off("SIGHUP", hangUp);
      }
      if (opening.failed) throw opening.error;
    } finally {
      if (alt) process.stdout.write("\x1b[?1049l");
    }
  });
}

export function registerTui(program: Command): void {
  program
    .command("tui")
    .description("the interactive terminal app (also `larder` alone on a terminal)")
    .addOption(dataOption())
    .option("--plain", "screen-reader friendly: no drawing, one item per line (or LARDER_PLAIN=1)")
    .action(async (opts: { data?: string; plain?: boolean }) => {
      await runTui(opts);
    });
}
