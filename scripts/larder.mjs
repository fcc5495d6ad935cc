#!/usr/bin/env node
/**
 * `npm run larder -- <command>` and `npm start`: run the bundled CLI (dist/bundle/larder.js) in this
 * process, building it first only when it is missing or older than the sources (build-if-stale.mjs).
 * `serve` (and `larder` alone, which may open the terminal app) also checks the UI's build.
 */
import { buildIfStale } from "./build-if-stale.mjs";

const command = process.argv.slice(2).find((a) => !a.startsWith("-"));
await buildIfStale({ ui: command === "serve" });
await import("../dist/bundle/larder.js");
