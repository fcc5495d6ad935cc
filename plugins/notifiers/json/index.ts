/** `json://` and `jsons://`: Apprise's custom JSON notification, with Mealie's event fields. */
import { definePlugin } from "../../../core/plugins/define.js";
import { customEndpoints, customRequest, sendCustom } from "../custom-payload.js";

export default definePlugin({
  kind: "notifier",
  name: "json",
  description: "POSTs {version, title, message, type} and Mealie's event fields as JSON (json://, jsons://)",
  schemes: ["json", "jsons"],
  check: (url) => customEndpoints(url, "jsons"),
  async send(url, notification, ctx) {
    const req = customRequest(url, "jsons", notification);
    await sendCustom(req, JSON.stringify(req.payload), "application/json", ctx);
  },
});
