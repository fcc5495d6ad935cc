/**
 * The Recipe Keeper reader on exports built here, for what its fixture does not show: picture links
 * as Windows and hand-renamed files write them.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-recipekeeper-");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

describe("picture links", () => {
  it("a picture path with a stray '%' and Windows backslashes finds its picture instead of failing the recipe", async () => {
    const html = `<html><body><div class="recipe-details">
      <h2 itemprop="name">Odd Pie</h2>
      <div itemprop="recipeIngredients"><p>1 crust</p></div>
      <div itemprop="recipeDirections"><p>Bake.</p></div>
      <img itemprop="photo0" src="images\\100%pie.jpg">
    </div></body></html>`;
    const r = byName(
      await collect(
        "recipekeeper",
        await scratch.zip("rk-odd.zip", [
          { name: "recipes.html", data: html },
          { name: "images/100%pie.jpg", data: JPEG },
        ]),
      ),
    );
    expect(r.get("Odd Pie")!.entry.imported.image).toMatchObject({ bytes: JPEG });
  });
});
