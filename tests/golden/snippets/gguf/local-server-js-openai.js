import { OpenAI } from "openai";

// Ollama's OpenAI-compatible API: the key is required by the client but ignored by Ollama.
const client = new OpenAI({
	baseURL: "http://127.0.0.1:11434/v1",
	apiKey: "ollama",
});

const messages = [
	{
		"role": "user",
		"content": "What is the capital of France?"
	}
];

const completion = await client.chat.completions.create({
	model: "hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
	messages,
});

console.log(completion.choices[0].message.content);