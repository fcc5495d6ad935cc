/** The `openai` parser: an OpenAI-compatible chat model (OPENAI_* settings) reads the lines. */
import { definePlugin } from "../../../core/plugins/define.js";

export default definePlugin({
  kind: "parser",
  name: "openai",
  description: "An OpenAI-compatible chat model reads the lines (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL)",
  async parse(lines, ctx) {
    const { parseLines } = await import("./parse.js");
    return parseLines(lines, ctx);
  },
});
