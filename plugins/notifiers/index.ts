/** The built-in notifiers plugins, one folder each (`plugins/notifiers/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
import json from "./json/index.js";
import form from "./form/index.js";
import ntfy from "./ntfy/index.js";
import gotify from "./gotify/index.js";
import discord from "./discord/index.js";
import slack from "./slack/index.js";
import telegram from "./telegram/index.js";
import email from "./email/index.js";

export const notifiers: readonly unknown[] = [json, form, ntfy, gotify, discord, slack, telegram, email];
