/** The built-in parsers plugins, one folder each (`plugins/parsers/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
import brute from "./brute/index.js";
import nlp from "./nlp/index.js";
import openai from "./openai/index.js";

export const parsers: readonly unknown[] = [nlp, brute, openai];
