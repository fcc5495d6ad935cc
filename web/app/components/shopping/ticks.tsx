/** The ticked rows of a picker (ingredients, planned recipes) and its "Select all / Select none". */
import { useState } from "react";
import { Button, Group } from "@mantine/core";
import { useT } from "../../lib/i18n.js";

export function useTicks<K>() {
  const [ticked, setTicked] = useState<Set<K>>(new Set());
  return {
    ticked,
    set: (keys: Iterable<K>) => setTicked(new Set(keys)),
    toggle: (key: K, on: boolean) =>
      setTicked((cur) => {
        const next = new Set(cur);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
  };
}

export function AllOrNone({ onAll, onNone }: { onAll: () => void; onNone: () => void }) {
  const t = useT("shopping");
  return (
    <Group gap="xs">
      <Button size="xs" variant="subtle" onClick={onAll}>
        {t("picker.selectAll")}
      </Button>
      <Button size="xs" variant="subtle" onClick={onNone}>
        {t("picker.selectNone")}
      </Button>
    </Group>
  );
}
