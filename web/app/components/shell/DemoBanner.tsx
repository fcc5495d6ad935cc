/** Spec §2 "Demo: sticky banner showing the demo version when demo status is on", on every layout. */
import { useRootData } from "../../lib/root-data.js";
import { useT } from "../../lib/i18n.js";

export function DemoBanner() {
  const info = useRootData()?.appInfo;
  const t = useT("admin");
  if (!info?.demoStatus) return null;
  return (
    <div className="demo-banner no-print" role="note" data-testid="demo-banner">
      {t("demo.banner", { version: info.version, larderVersion: info.larderVersion })}
    </div>
  );
}
