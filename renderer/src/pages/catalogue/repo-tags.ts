/** A group of a repo's Hub tags as huggingface.co shows them: a heading and its values. */
interface TagGroup {
  key: string;
  label: string;
  values: string[];
}

// The Hub's `<prefix>:<value>` tags, in the order huggingface.co lists them beside a dataset or Space.
const groups: [prefix: string, label: string][] = [
  ['task_categories', 'Tasks'],
  ['task_ids', 'Sub-tasks'],
  ['modality', 'Modalities'],
  ['format', 'Formats'],
  ['size_categories', 'Size'],
  ['language', 'Languages'],
  ['library', 'Libraries'],
];

/** Size categories the way the Hub labels them: `10K<n<100K` → "10K – 100K rows". */
function sizeLabel(v: string): string {
  const m = /^(?:(\d+[KMBT]?)<)?n<(\d+[KMBT]?)$/.exec(v);
  if (m) return m[1] ? `${m[1]} – ${m[2]} rows` : `under ${m[2]} rows`;
  const over = /^n>(\d+[KMBT]?)$/.exec(v);
  return over ? `over ${over[1]} rows` : v;
}

/**
 * A dataset's or a Space's tags, grouped (tasks, modalities, formats, size, languages, libraries). The licence and a
 * Space's SDK are shown with the page's figures (licenceOf); tags the Hub adds for its own use (`region:`) and bare
 * ones (`gradio`) are left out.
 */
export function groupRepoTags(tags: string[]): TagGroup[] {
  const out: TagGroup[] = [];
  for (const [prefix, label] of groups) {
    const values = [
      ...new Set(tags.filter((t) => t.startsWith(`${prefix}:`)).map((t) => t.slice(prefix.length + 1))),
    ].filter(Boolean);
    if (values.length)
      out.push({ key: prefix, label, values: prefix === 'size_categories' ? values.map(sizeLabel) : values });
  }
  return out;
}

/** The licence from the card's front matter, else from the Hub's `license:` tag. */
export function licenceOf(cardData: Record<string, unknown> | undefined, tags: string[]): string | undefined {
  const card = cardData?.license;
  if (typeof card === 'string' && card.trim()) return card.trim();
  if (Array.isArray(card) && typeof card[0] === 'string') return card.join(', ');
  return tags.find((t) => t.startsWith('license:'))?.slice('license:'.length) || undefined;
}
