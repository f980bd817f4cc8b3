import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";

// HubDesk's local server; the key comes from the environment (export HUBDESK_LOCAL_SERVER_KEY=...).
const hubdesk = createOpenAICompatible({
	name: "hubdesk",
	baseURL: "http://127.0.0.1:11435/v1",
	apiKey: process.env.HUBDESK_LOCAL_SERVER_KEY,
});

const result = streamText({
	model: hubdesk("bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf"),
	prompt: "Say hello in one sentence.",
});
for await (const text of result.textStream) {
	process.stdout.write(text);
}
process.stdout.write("\n");