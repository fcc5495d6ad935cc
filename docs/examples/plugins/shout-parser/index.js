// A minimal third-party parser plugin (docs/plugins.md). It reads every line as a note, in capitals.
// Load it with LARDER_PLUGINS=./docs/examples/plugins/shout-parser/index.js
export default {
  kind: "parser",
  name: "shout",
  description: "An example: every line becomes a note in capitals",
  async parse(lines) {
    return lines.map((input) => ({
      input,
      confidence: { average: 0, comment: 0, name: 0, unit: 0, quantity: 0, food: 0 },
      ingredient: {
        quantity: 0,
        unit: null,
        food: null,
        note: input.toUpperCase(),
        display: input.toUpperCase(),
        originalText: input,
      },
    }));
  },
};
