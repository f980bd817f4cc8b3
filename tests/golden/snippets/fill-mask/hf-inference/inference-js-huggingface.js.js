import { InferenceClient } from "@huggingface/inference";

const client = new InferenceClient(process.env.HF_TOKEN);

const output = await client.fillMask({
	model: "google-bert/bert-base-uncased",
	inputs: "The answer to the universe is [MASK].",
	provider: "hf-inference",
});

console.log(output);