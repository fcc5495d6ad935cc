/**
 * The tagger on data the project writes itself (no fixtures needed): tokenising, reading quantities,
 * training a small model reproducibly, encoding it and tagging unseen lines, assembling Mealie's fields.
 */
import { describe, expect, it } from "vitest";
import { assemble, joinTokens } from "./assemble.js";
import { LABEL_INDEX, LABELS } from "./labels.js";
import { Scores, fieldsOf } from "./metrics.js";
import { TaggerModel, encodeModel } from "./model.js";
import { trainPerceptron, type TrainingSentence } from "./perceptron.js";
import { readQuantity } from "./quantity.js";
import { tokenize } from "./tokenize.js";

describe("tokenize (the reference tokeniser of the shared data)", () => {
  it("splits digits from letters, keeps fractions and decimals whole, and expands vulgar fractions", () => {
    expect(tokenize("100g/3½oz butter, softened").tokens).toEqual([
      "100",
      "g",
      "/",
      "3",
      "1/2",
      "oz",
      "butter",
      ",",
      "softened",
    ]);
    expect(tokenize("1,5 l all-purpose confectioners' sugar").tokens).toEqual([
      "1,5",
      "l",
      "all-purpose",
      "confectioners'",
      "sugar",
    ]);
    expect(tokenize("2–3 cloves").tokens).toEqual(["2", "-", "3", "cloves"]);
    expect(tokenize("1&frac12; cups").tokens).toEqual(["1", "1/2", "cups"]);
    expect(tokenize("1⁄4 tsp").tokens).toEqual(["1/4", "tsp"]);
  });

  it("maps every token back to the characters of the raw input", () => {
    const input = "5¼oz chickpeas";
    const { tokens, spans } = tokenize(input);
    expect(tokens).toEqual(["5", "1/4", "oz", "chickpeas"]);
    expect(spans.map(([a, b]) => input.slice(a, b))).toEqual(["5", "¼", "oz", "chickpeas"]);
  });

  it("copes with emoji, right-to-left text and control characters", () => {
    expect(tokenize("2 🍋 lemons").tokens).toEqual(["2", "🍋", "lemons"]);
    expect(tokenize("2 كوب دقيق").tokens).toEqual(["2", "كوب", "دقيق"]);
    expect(tokenize("1\u0000cup\u0007").tokens).toEqual(["1", "\u0000", "cup", "\u0007"]);
  });
});

describe("readQuantity", () => {
  it("merges an integer with a proper fraction, reads decimals with a comma, and stops at a range", () => {
    expect(readQuantity(["1", "1/2"])).toEqual({ value: 1.5, max: null });
    expect(readQuantity(["1,5"])).toEqual({ value: 1.5, max: null });
    expect(readQuantity(["2", "-", "3"])).toEqual({ value: 2, max: 3 });
    expect(readQuantity(["1", "1/2", "to", "2"])).toEqual({ value: 1.5, max: 2 });
    expect(readQuantity(["1/32"])?.value).toBeCloseTo(0.03125);
    expect(readQuantity(["3/2"])).toEqual({ value: 1.5, max: null });
    expect(readQuantity(["a"])).toBeNull();
    expect(readQuantity(["1/0"])).toBeNull();
  });
});

// A handful of lines labelled by hand for these tests.
const L = LABEL_INDEX;
function line(spec: string): TrainingSentence {
  const pairs = spec.split(" ").map((p) => p.split("|"));
  return { tokens: pairs.map(([t]) => t), labels: pairs.map(([, l]) => L[l]) };
}
const TRAIN = [
  "2|QTY cups|UNIT flour|NAME ,|PUNC sifted|PREP",
  "1|QTY cup|UNIT sugar|NAME",
  "3|QTY tbsp|UNIT butter|NAME ,|PUNC melted|PREP",
  "1|QTY tsp|UNIT salt|NAME",
  "2|QTY large|SIZE eggs|NAME ,|PUNC beaten|PREP",
  "4|QTY cloves|UNIT garlic|NAME ,|PUNC crushed|PREP",
  "1|QTY small|SIZE onion|NAME ,|PUNC chopped|PREP",
  "200|QTY g|UNIT rice|NAME",
  "1|QTY tbsp|UNIT parsley|NAME ,|PUNC to|PURPOSE garnish|PURPOSE",
  "salt|NAME and|NAME pepper|NAME ,|PUNC to|COMMENT taste|COMMENT",
  "2|QTY tsp|UNIT cumin|NAME ,|PUNC ground|PREP",
  "500|QTY ml|UNIT milk|NAME ,|PUNC warmed|PREP",
].map(line);

describe("training (averaged structured perceptron)", () => {
  const opts = { epochs: 8, seed: 7, minCount: 1 };

  it("is reproducible: the same data and seed give the same model file", () => {
    const a = encodeModel({ ...trainPerceptron(TRAIN, opts), temperature: 4 }, 0);
    const b = encodeModel({ ...trainPerceptron(TRAIN, opts), temperature: 4 }, 0);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("learns its lines, survives encoding, and tags lines it has not seen", () => {
    const model = TaggerModel.decode(encodeModel({ ...trainPerceptron(TRAIN, opts), temperature: 4 }, 0));
    const seen = new Scores();
    for (const s of TRAIN) seen.add(s.tokens, s.labels, model.tag(s.tokens, false).labels);
    expect(seen.summary().sentence).toBe(100);

    const unseen = [line("3|QTY cups|UNIT sugar|NAME ,|PUNC sifted|PREP"), line("1|QTY tsp|UNIT cumin|NAME")];
    const scores = new Scores();
    for (const s of unseen) scores.add(s.tokens, s.labels, model.tag(s.tokens, false).labels);
    expect(scores.summary().word).toBeGreaterThanOrEqual(90);

    const { labels, confidence } = model.tag(["2", "cups", "rice"]);
    expect([...labels].map((l) => LABELS[l])).toEqual(["QTY", "UNIT", "NAME"]);
    for (const c of confidence) {
      expect(c).toBeGreaterThan(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });

  it("tags an empty line as nothing and a very long one without failing", () => {
    const model = TaggerModel.decode(encodeModel({ ...trainPerceptron(TRAIN, opts), temperature: 4 }, 0));
    expect(model.tag([]).labels.length).toBe(0);
    const long = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? "2" : "flour"));
    const { labels, confidence } = model.tag(long);
    expect(labels.length).toBe(3000);
    expect([...confidence].every((c) => Number.isFinite(c))).toBe(true);
  });
});

describe("fields (SOURCE.md's field metric and Mealie's assembly)", () => {
  const labelled = line(
    "1|QTY 1/2|QTY cups|UNIT chopped|PREP onion|NAME ,|PUNC (|PUNC to|COMMENT taste|COMMENT )|PUNC",
  );

  it("reads quantity, singular unit and the name tokens", () => {
    expect(fieldsOf(labelled.tokens, labelled.labels)).toEqual({ qty: 1.5, unit: "cup", food: "onion" });
  });

  it("builds the note from size, preparation and comment, joined with ', ', without parentheses", () => {
    const a = assemble(
      labelled.tokens,
      labelled.labels,
      labelled.tokens.map(() => 0.9),
    );
    expect(a).toMatchObject({
      quantity: 1.5,
      quantityMax: null,
      unit: "cup",
      food: "onion",
      note: "chopped, to taste",
    });
    expect(a.confidence).toEqual({
      average: 0.9,
      comment: 0.9,
      name: 0.9,
      unit: 0.9,
      quantity: 0.9,
      food: 0.9,
    });
  });

  it("keeps a range's upper end and joins tokens back as written", () => {
    const r = line("2|QTY -|QTY 3|QTY cloves|UNIT garlic|NAME");
    expect(
      assemble(
        r.tokens,
        r.labels,
        r.tokens.map(() => 1),
      ),
    ).toMatchObject({ quantity: 2, quantityMax: 3, unit: "clove", food: "garlic" });
    expect(
      joinTokens(["cut", "into", "3/4", "-", "inch", "cubes", "(", "about", "2", "-", "3", ")", ","]),
    ).toBe("cut into 3/4 inch cubes (about 2-3),");
  });
});

describe("amounts and brackets beyond the fields", () => {
  const fields = (labelled: string) => {
    const l = line(labelled);
    return assemble(
      l.tokens,
      l.labels,
      l.tokens.map(() => 1),
    );
  };

  it("takes the amount outside brackets and keeps the size in brackets before its unit in the note", () => {
    expect(
      fields("1|QTY (|PUNC 14|QTY oz|UNIT )|PUNC can|UNIT diced|NAME tomatoes|NAME ,|PUNC drained|PREP"),
    ).toMatchObject({ quantity: 1, unit: "can", food: "diced tomatoes", note: "14 oz, drained" });
  });

  it("leaves out an equivalent in brackets after the amount, as Mealie's parser does", () => {
    expect(fields("3|QTY cups|UNIT (|PUNC 750|QTY ml|UNIT )|PUNC water|NAME")).toMatchObject({
      quantity: 3,
      unit: "cup",
      food: "water",
      note: "",
    });
  });

  it("keeps a second amount joined by + or plus in the note", () => {
    expect(fields("1|QTY cup|UNIT +|PUNC 2|QTY tbsp|UNIT milk|NAME")).toMatchObject({
      quantity: 1,
      unit: "cup",
      food: "milk",
      note: "+ 2 tbsp",
    });
    expect(fields("1|QTY cup|UNIT plus|COMMENT 2|QTY tablespoons|UNIT flour|NAME")).toMatchObject({
      note: "plus 2 tablespoons",
    });
  });

  it("counts packs and keeps their size in the note: '2 x 400g tins', '1 400g can', '1 12-ounce bag'", () => {
    expect(fields("2|QTY x|QTY 400|QTY g|UNIT tins|UNIT chopped|NAME tomatoes|NAME")).toMatchObject({
      quantity: 2,
      unit: "tin",
      food: "chopped tomatoes",
      note: "400 g",
    });
    expect(fields("1|QTY 400|QTY g|UNIT can|UNIT chickpeas|NAME ,|PUNC drained|PREP")).toMatchObject({
      quantity: 1,
      unit: "can",
      food: "chickpeas",
      note: "400 g, drained",
    });
    expect(fields("1|QTY 12|QTY -|PUNC ounce|UNIT bag|UNIT chocolate|NAME chips|NAME")).toMatchObject({
      quantity: 1,
      unit: "bag",
      note: "12 ounce",
    });
    // No pack named: the size's unit is not the amount's.
    expect(fields("4|QTY x|QTY 150|QTY g|UNIT salmon|NAME fillets|NAME")).toMatchObject({
      quantity: 4,
      unit: null,
      food: "salmon fillets",
      note: "150 g",
    });
    // A range of packs.
    expect(fields("2|QTY -|QTY 3|QTY x|QTY 400|QTY g|UNIT tins|UNIT beans|NAME")).toMatchObject({
      quantity: 2,
      quantityMax: 3,
      unit: "tin",
      note: "400 g",
    });
  });

  it("reads one pack named by its size: '400g can', 'a 12 oz bottle'; leaves 'fl oz' and 'heaping cup' alone", () => {
    expect(fields("a|COMMENT 400|QTY g|UNIT can|UNIT of|COMMENT chickpeas|NAME")).toMatchObject({
      quantity: 1,
      unit: "can",
      food: "chickpeas",
      note: "400 g",
    });
    expect(fields("12|QTY oz|UNIT bottle|UNIT beer|NAME")).toMatchObject({
      quantity: 1,
      unit: "bottle",
      note: "12 oz",
    });
    expect(fields("2|QTY fl|UNIT oz|UNIT milk|NAME")).toMatchObject({ quantity: 2, unit: "fl oz", note: "" });
    expect(fields("1|QTY heaping|UNIT cup|UNIT flour|NAME")).toMatchObject({
      quantity: 1,
      unit: "heaping cup",
    });
  });

  it("reads amounts written out: 'two eggs', 'half a lemon', 'a dozen eggs', 'one 14-ounce can'", () => {
    expect(fields("two|QTY eggs|NAME")).toMatchObject({ quantity: 2, food: "eggs" });
    expect(fields("half|QTY a|COMMENT lemon|NAME")).toMatchObject({ quantity: 0.5, food: "lemon", note: "" });
    expect(fields("a|COMMENT dozen|QTY eggs|NAME")).toMatchObject({ quantity: 12, note: "" });
    expect(fields("one|QTY 14|QTY -|PUNC ounce|UNIT can|UNIT coconut|NAME milk|NAME")).toMatchObject({
      quantity: 1,
      unit: "can",
      note: "14 ounce",
    });
  });

  it("reads a size in brackets right after the amount as one pack's, not the amount's unit", () => {
    expect(fields("1|QTY (|PUNC 15|QTY oz|UNIT )|PUNC tomato|NAME sauce|NAME")).toMatchObject({
      quantity: 1,
      unit: null,
      food: "tomato sauce",
      note: "15 oz",
    });
  });

  it("still reads two numbers that make one amount as one: '1 1/2', '1 and 1/2', a range", () => {
    expect(fields("1|QTY 1/2|QTY cups|UNIT flour|NAME")).toMatchObject({
      quantity: 1.5,
      unit: "cup",
      note: "",
    });
    expect(fields("1|QTY and|QTY 1/2|QTY cups|UNIT sugar|NAME")).toMatchObject({ quantity: 1.5, note: "" });
    expect(fields("1|QTY 1/2|QTY -|QTY 2|QTY cups|UNIT water|NAME")).toMatchObject({
      quantity: 1.5,
      quantityMax: 2,
      unit: "cup",
      note: "",
    });
  });

  it("takes no unit from brackets after the food: they weigh it", () => {
    expect(fields("3|QTY eggs|NAME (|PUNC 150|QTY g|UNIT )|PUNC")).toMatchObject({
      quantity: 3,
      unit: null,
      food: "eggs",
      note: "",
    });
  });

  it("closes a bracket the food opens, and drops the words a note would hold alone", () => {
    expect(fields("2|QTY lbs|UNIT chicken|NAME thighs|NAME (|PUNC bone-in|NAME )|PUNC")).toMatchObject({
      food: "chicken thighs (bone-in)",
    });
    expect(fields("a|COMMENT pinch|UNIT of|COMMENT salt|NAME")).toMatchObject({
      unit: "pinch",
      food: "salt",
      note: "",
    });
  });
});

describe("product-forming preparations", () => {
  it("keeps 'ground' with the food it directly precedes, but not other preparations", () => {
    const ground = line("1|QTY tsp|UNIT ground|PREP black|NAME pepper|NAME");
    expect(
      assemble(
        ground.tokens,
        ground.labels,
        ground.tokens.map(() => 1),
      ),
    ).toMatchObject({ food: "ground black pepper", note: "" });
    const chopped = line("1|QTY cup|UNIT chopped|PREP onion|NAME");
    expect(
      assemble(
        chopped.tokens,
        chopped.labels,
        chopped.tokens.map(() => 1),
      ),
    ).toMatchObject({ food: "onion", note: "chopped" });
    const finely = line("1|QTY tsp|UNIT finely|PREP ground|PREP pepper|NAME");
    expect(
      assemble(
        finely.tokens,
        finely.labels,
        finely.tokens.map(() => 1),
      ),
    ).toMatchObject({ food: "pepper", note: "finely ground" });
  });
});
