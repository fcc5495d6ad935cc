/** One coloured status line: green for done, yellow for a warning, red for a failure. */
import { Text } from "ink";

export type StatusKind = "ok" | "warn" | "error";

const LOOK: Record<StatusKind, { mark: string; color: string }> = {
  ok: { mark: "✔", color: "green" },
  warn: { mark: "!", color: "yellow" },
  error: { mark: "✘", color: "red" },
};

export function Status({ kind, text }: { kind: StatusKind; text: string }) {
  const look = LOOK[kind];
  return (
    <Text>
      <Text color={look.color}>{look.mark}</Text> {text}
    </Text>
  );
}
