/**
 * The terminal app in a real pseudo-terminal (issue 18): tmux gives it an 80×24 screen, `send-keys`
 * types and `capture-pane` reads what a person would see. Every step waits for text on the screen
 * (bounded), never for a fixed time.
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_SHELL, json, larder, REPO, tempDir } from "../../cli/testing/run-cli.js";
import { requireDependency, runsWith } from "../../core/testing/needs.js";

function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const tmuxPresent = hasTmux();

/** Our own tmux server (its own socket), so nothing here touches a developer's sessions. */
const SOCKET = `larder-test-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function startApp(session: string, args: string, env: Record<string, string> = {}): void {
  const vars = { LARDER_BCRYPT_ROUNDS: "4", NO_COLOR: "1", TERM: "xterm-256color", ...env };
  // The test runner's CI=true must not reach the app: Ink (is-in-ci) then draws only the last frame, and
  // `larder` alone treats CI as a script and prints the help (decision 0077).
  const command = `cd ${quote(REPO)} && env -u CI -u CONTINUOUS_INTEGRATION ${Object.entries(vars)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(" ")} ${CLI_SHELL} ${args}`;
  tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command);
}

const screen = (session: string) => tmux("capture-pane", "-p", "-t", session);
const running = (session: string) => {
  try {
    tmux("has-session", "-t", session);
    return true;
  } catch {
    return false;
  }
};

/** Poll the screen until `text` is on it (up to 45 s: tsx compiles the CLI on first start, on a busy CI machine). */
async function waitFor(session: string, text: string | RegExp): Promise<string> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const s = running(session) ? screen(session) : "(the app has exited)";
    if (typeof text === "string" ? s.includes(text) : text.test(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)}; screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForExit(session: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (running(session)) {
    if (Date.now() > deadline) throw new Error(`the app did not exit; screen:\n${screen(session)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const keys = (session: string, ...k: string[]) => tmux("send-keys", "-t", session, ...k);
const text = (session: string, t: string) => tmux("send-keys", "-t", session, "-l", t);

describe.skipIf(!runsWith(tmuxPresent, "tmux (the terminal app's pseudo-terminal tests)"))(
  "the terminal app in an 80×24 terminal",
  () => {
    let tmp: Awaited<ReturnType<typeof tempDir>>;
    let dir: string;
    beforeAll(async () => {
      requireDependency(tmuxPresent, "tmux");
      tmp = await tempDir("larder-tui-");
      dir = join(tmp.path, "data");
      expect((await larder(["init", dir])).exitCode).toBe(0);
      await writeFile(
        join(dir, "groups", "home", "recipes", "pancakes.md"),
        "---\nname: Fluffy Pancakes\nrecipeServings: 4\n---\n## Ingredients\n- 2 cups flour\n- 1 1/2 cups milk\n- 2 eggs\n\n" +
          "## Instructions\n1. Whisk the flour, milk and eggs together until smooth, then rest the batter.\n",
      );
      await writeFile(
        join(dir, "groups", "home", "recipes", "tomato-soup.md"),
        "---\nname: Tomato Soup\nrecipeServings: 2\n---\n## Ingredients\n- 6 tomatoes\n",
      );
      expect((await larder(["list", "new", "Weekly", "--data", dir])).exitCode).toBe(0);
      const added = await larder(["list", "add-recipe", "Weekly", "pancakes", "--data", dir]);
      expect(added.exitCode, String(added.stderr)).toBe(0);
    }, 90_000);
    afterAll(async () => {
      try {
        tmux("kill-server");
      } catch {
        // no server left: every session has ended
      }
      await tmp?.cleanup();
    });

    it("finds a recipe, shows it scaled and checks off a list item that `larder list` then sees", async () => {
      const s = "app";
      startApp(s, `tui --data ${quote(dir)}`);
      let shown = await waitFor(s, "2 recipes");
      // The whole frame fits: the title is still on the first row.
      expect(shown.split("\n")[0]).toMatch(/^Larder · /);

      text(s, "pan");
      shown = await waitFor(s, "1 recipe");
      expect(shown).toContain("> Fluffy Pancakes");
      expect(shown).not.toContain("Tomato Soup");
      keys(s, "Enter");
      shown = await waitFor(s, "Servings: 4");
      expect(shown).toMatch(/- 2 cups .*flour/);

      text(s, "+");
      text(s, "+");
      shown = await waitFor(s, "Servings: 6 (recipe: 4)");
      // ×1.5 with core's fractions: 2 → 3 cups, 1 ½ → 2 ¼ cups, 2 → 3 eggs.
      expect(shown).toMatch(/- 3 cups .*flour/);
      expect(shown).toMatch(/- 2 ¹\/₄ cups .*milk/);
      expect(shown).toContain("- 3 eggs");
      expect(shown).toContain(" 1. Whisk the flour");

      keys(s, "Escape");
      await waitFor(s, "Search: pan");
      keys(s, "Tab");
      await waitFor(s, "‹Plan›");
      keys(s, "Tab");
      // The only list opens straight away; the cursor starts on the first open item.
      shown = await waitFor(s, "Weekly (3 to get, 0 checked)");
      const first = /> \[ \] (.+?)\s{2}\(/.exec(shown)?.[1];
      expect(first, shown).toBeTruthy();
      keys(s, "Space");
      shown = await waitFor(s, "Weekly (2 to get, 1 checked)");
      expect(shown).toContain(`[x] ${first}`);
      await waitFor(s, `Checked: ${first}`);

      // q goes back to the first screen (the search, as it was left); Esc clears it, then quits.
      keys(s, "q");
      await waitFor(s, "Search: pan");
      keys(s, "Escape");
      await waitFor(s, "2 recipes");
      keys(s, "Escape");
      await waitForExit(s);
      // The check-off went through `larder list check`'s write: the list command sees it.
      const listed = await larder(["list", "show", "Weekly", "--data", dir, "--json"]);
      expect(listed.exitCode, String(listed.stderr)).toBe(0);
      const items = json<{ listItems: { display: string; checked: boolean }[] }>(listed).listItems;
      expect(items.filter((i) => i.checked).map((i) => i.display)).toEqual([first]);
    }, 120_000);

    it("opens on `larder` alone in a terminal, plainly with LARDER_PLAIN=1, and quits on Esc", async () => {
      const s = "plain";
      startApp(s, "", { LARDER_DATA: dir, LARDER_PLAIN: "1" });
      const shown = await waitFor(s, "2 recipes");
      expect(shown).toContain("[Recipes]");
      expect(shown).toContain("> Fluffy Pancakes");
      expect(shown).not.toMatch(/[─│╭╮╰╯‹›▏]/);
      keys(s, "?");
      await waitFor(s, "Press any key to close this help.");
      keys(s, "x");
      await waitFor(s, "2 recipes");
      keys(s, "Escape");
      await waitForExit(s);
    }, 60_000);

    it("opens on `larder --data DIR --plain` too: the app's own options without its name", async () => {
      const s = "options";
      startApp(s, `--data ${quote(dir)} --plain`);
      const shown = await waitFor(s, "2 recipes");
      expect(shown).toContain("[Recipes]");
      keys(s, "Escape");
      await waitForExit(s);
    }, 60_000);

    it("ends with the reason and a failing exit code when the folder cannot be opened behind its first frame", async () => {
      // A folder whose every user lost the admin flag: a local command has no one to act as.
      const headless = join(tmp.path, "headless");
      expect((await larder(["init", headless])).exitCode).toBe(0);
      const usersFile = join(headless, "users.json");
      const users = JSON.parse(await readFile(usersFile, "utf8")) as { users: { admin: boolean }[] };
      for (const u of users.users) u.admin = false;
      await writeFile(usersFile, JSON.stringify(users, null, 2));
      const s = "headless";
      startApp(s, `tui --data ${quote(headless)}; echo "exit=$?"; sleep 30`);
      const shown = await waitFor(s, /exit=\d+/);
      expect(shown).toContain("has no administrator");
      expect(shown).toMatch(/exit=[1-9]/);
      tmux("kill-session", "-t", s);
    }, 60_000);

    it("prints the help as before when `larder` runs without a terminal", async () => {
      const res = await larder([], { env: { LARDER_DATA: dir } });
      expect(res.exitCode).not.toBe(0);
      expect(String(res.stderr)).toContain("Usage: larder");
      expect(String(res.stderr)).toContain("tui");
    });
  },
);
