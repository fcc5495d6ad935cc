/** The `nlp` parser: a trained sequence tagger (decision 0040). The model loads on first use. */
import { definePlugin } from "../../../core/plugins/define.js";

export default definePlugin({
  kind: "parser",
  name: "nlp",
  description: "Trained tagger (averaged structured perceptron) for quantity, unit, food and note",
  async parse(lines, ctx) {
    const { parseLine, loadModel } = await import("./parse.js");
    const model = loadModel();
    return lines.map((line) => parseLine(line, ctx.match, model));
  },
});
