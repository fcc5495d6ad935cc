/**
 * `larder import` on a terminal: a line per finished item above a live progress bar. Loaded lazily
 * (only a person at a TTY sees it).
 */
import { Box, render, Static, Text } from "ink";
import type { ImportOutcome } from "../commands/import.js";

const WIDTH = 30;

function Bar({ done, total }: { done: number; total: number }) {
  const filled = total ? Math.round((done / total) * WIDTH) : WIDTH;
  return (
    <Text>
      <Text color="green">{"█".repeat(filled)}</Text>
      <Text dimColor>{"░".repeat(WIDTH - filled)}</Text> {done}/{total}
    </Text>
  );
}

function View({ results, total, finished }: { results: ImportOutcome[]; total: number; finished: boolean }) {
  const failed = results.filter((r) => !r.ok).length;
  return (
    <>
      <Static items={results}>
        {(r, i) => (
          <Box key={i}>
            {r.ok ? (
              <Text>
                <Text color="green">✔</Text> {r.input} <Text dimColor>→</Text> {r.slug}
              </Text>
            ) : (
              <Text>
                <Text color="red">✘</Text> {r.input}: <Text color="red">{r.error}</Text>
              </Text>
            )}
          </Box>
        )}
      </Static>
      {finished ? (
        <Text>
          {results.length - failed} imported{failed ? <Text color="red">, {failed} failed</Text> : null}
        </Text>
      ) : (
        <Bar done={results.length} total={total} />
      )}
    </>
  );
}

export function renderImportProgress(total: number): { add(o: ImportOutcome): void; done(): Promise<void> } {
  const results: ImportOutcome[] = [];
  const instance = render(<View results={[]} total={total} finished={false} />, {
    patchConsole: false,
    exitOnCtrlC: true,
  });
  return {
    add(o) {
      results.push(o);
      instance.rerender(<View results={[...results]} total={total} finished={false} />);
    },
    async done() {
      instance.rerender(<View results={[...results]} total={total} finished={true} />);
      const exited = instance.waitUntilExit();
      instance.unmount();
      await exited;
    },
  };
}
