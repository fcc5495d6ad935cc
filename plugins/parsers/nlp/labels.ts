/** The tagger's labels, in the order of the model's weight rows. */
export const LABELS = ["QTY", "UNIT", "SIZE", "PREP", "PURPOSE", "COMMENT", "NAME", "PUNC"] as const;
export type Label = (typeof LABELS)[number];
export const NUM_LABELS = LABELS.length;
export const LABEL_INDEX: Readonly<Record<string, number>> = Object.fromEntries(LABELS.map((l, i) => [l, i]));
