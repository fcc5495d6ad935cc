/** The `brute` parser: Mealie's rule-based algorithm (mealie-api-notes §13). */
import { definePlugin } from "../../../core/plugins/define.js";

export default definePlugin({
  kind: "parser",
  name: "brute",
  description: "Mealie's rule-based parser: amount, unit, food, note by position",
  async parse(lines, ctx) {
    const { parseLine } = await import("./brute.js");
    return lines.map((line) => parseLine(line, ctx.match));
  },
});
