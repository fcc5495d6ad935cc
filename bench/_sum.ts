import { readFileSync, readdirSync } from "node:fs";
import { summariseProfile } from "./profile-summary.js";
const dir = process.argv[2];
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"))!;
const s = summariseProfile(JSON.parse(readFileSync(`${dir}/${f}`, "utf8")), 45) as any;
console.log(JSON.stringify(s, null, 0).slice(0, 200));
for (const k of Object.keys(s)) if (Array.isArray(s[k])) { console.log("==", k); for (const r of s[k]) console.log(JSON.stringify(r)); }
