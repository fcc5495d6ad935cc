/** `form://` and `forms://`: Apprise's custom form notification, with Mealie's event fields. */
import { definePlugin } from "../../../core/plugins/define.js";
import { customEndpoints, customRequest, sendCustom } from "../custom-payload.js";

export default definePlugin({
  kind: "notifier",
  name: "form",
  description: "POSTs version, title, message, type and Mealie's event fields as a form (form://, forms://)",
  schemes: ["form", "forms"],
  check: (url) => customEndpoints(url, "forms"),
  async send(url, notification, ctx) {
    const req = customRequest(url, "forms", notification);
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(req.payload)) if (!Array.isArray(v)) form.append(k, v);
    await sendCustom(req, form.toString(), "application/x-www-form-urlencoded", ctx);
  },
});
