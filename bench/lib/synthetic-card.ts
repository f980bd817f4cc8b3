/** The model card of `id`, of about `bytes`, shaped like real ones: sections, links, a results table, code, lists. */
export function syntheticCard(id: string, bytes: number): string {
  const section = (i: number) =>
    [
      `## Section ${i}: evaluation and usage`,
      '',
      `This model was trained on **${i * 3} B tokens** with [a curated mix](docs/data-${i}.md) and evaluated on ` +
        'standard benchmarks. See the [paper](https://arxiv.org/abs/2407.21783) and `config.json` for details. '.repeat(
          3,
        ),
      '',
      '| Benchmark | Score | Shots | Notes |',
      '| --------- | ----- | ----- | ----- |',
      ...Array.from(
        { length: 12 },
        (_, r) => `| task-${i}-${r} | ${(50 + ((i * r) % 40)).toFixed(1)} | ${r % 5} | ok |`,
      ),
      '',
      '```python',
      'from transformers import AutoModelForCausalLM, AutoTokenizer',
      `model = AutoModelForCausalLM.from_pretrained("${id}")`,
      'print(model.generate(**tokenizer("Hello", return_tensors="pt")))',
      '```',
      '',
      ...Array.from({ length: 6 }, (_, r) => `- point ${r}: *emphasis* and a [link](#section-${i})`),
      '',
    ].join('\n');
  let out = '---\nlicense: apache-2.0\nlanguage: [en]\n---\n# Bench card\n\n';
  for (let i = 0; out.length < bytes; i++) out += section(i) + '\n';
  return out;
}
