/**
 * Whether React has hydrated. Controls that need JavaScript (the read-only search box that opens the
 * dialog) render their no-JavaScript form on the server and in the first client render, then switch.
 */
import { useEffect, useState } from "react";

let hydrated = false;

export function useHydrated(): boolean {
  const [value, setValue] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setValue(true);
  }, []);
  return value;
}
