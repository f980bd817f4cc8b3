import OpenAI from "openai";

// HubDesk's local server; the key comes from the environment (export HUBDESK_LOCAL_SERVER_KEY=...).
const client = new OpenAI({
	baseURL: "http://127.0.0.1:11435/v1",
	apiKey: process.env.HUBDESK_LOCAL_SERVER_KEY,
});

const stream = await client.chat.completions.create({
	model: "bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
	messages: [{ role: "user", content: "Say hello in one sentence." }],
	stream: true,
});
for await (const chunk of stream) {
	process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
process.stdout.write("\n");