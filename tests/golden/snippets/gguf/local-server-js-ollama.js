import { Ollama } from "ollama";

const ollama = new Ollama({ host: "http://127.0.0.1:11434" });

const messages = [
	{
		"role": "user",
		"content": "What is the capital of France?"
	}
];

const response = await ollama.chat({
	model: "hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
	messages,
});

console.log(response.message.content);