/**
 * Display labels of choice options. The host answers with labels, so labels must be unique
 * within a question for each one to map back to exactly one stable value.
 *
 * The rule (documented in the README):
 * 1. the label is the option's title (`oneOf[].title`, `enumNames[i]`) when it has visible text,
 *    else its value, else `(empty)`;
 * 2. when two or more options would show the same label, each of them shows `Title (value)`;
 * 3. if labels still collide (only contrived titles do that), the later ones get ` #2`, ` #3`, ...
 *    skipping any label already in use.
 *
 * Values are unique when this runs (the schema mapping keeps the first option of a repeated value).
 *
 * Every function here is pure: values in, values out.
 */

const visible = /\S/;

const baseLabel = (title: string | null, value: string): string => {
  if (title !== null && visible.test(title)) return title;
  return visible.test(value) ? value : '(empty)';
};

const allDistinct = (labels: ReadonlyArray<string>): boolean => {
  if (labels.length <= 8) {
    for (let i = 1; i < labels.length; i += 1) {
      for (let j = 0; j < i; j += 1) if (labels[i] === labels[j]) return false;
    }
    return true;
  }
  return new Set(labels).size === labels.length;
};

const counts = (labels: ReadonlyArray<string>): Map<string, number> => {
  const seen = new Map<string, number>();
  for (const label of labels) seen.set(label, (seen.get(label) ?? 0) + 1);
  return seen;
};

/**
 * Unique display labels for options with these titles (`null`: untitled) and these distinct values.
 * `result[i]` labels the option with `values[i]`.
 */
export function uniqueLabels(titles: ReadonlyArray<string | null>, values: ReadonlyArray<string>): Array<string> {
  const bases = values.map((value, i) => baseLabel(titles[i] ?? null, value));
  if (allDistinct(bases)) return bases;

  const baseCounts = counts(bases);
  const planned = bases.map((base, i) => ((baseCounts.get(base) ?? 0) > 1 ? `${base} (${values[i] ?? ''})` : base));
  if (allDistinct(planned)) return planned;

  const plannedCounts = counts(planned);
  const used = new Set(planned.filter((label) => plannedCounts.get(label) === 1));
  return planned.map((label) => {
    if (plannedCounts.get(label) === 1) return label;
    let candidate = label;
    for (let n = 2; used.has(candidate); n += 1) candidate = `${label} #${n}`;
    used.add(candidate);
    return candidate;
  });
}
