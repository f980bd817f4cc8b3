from openai import OpenAI

# Ollama's OpenAI-compatible API: the key is required by the client but ignored by Ollama.
client = OpenAI(
    base_url="http://127.0.0.1:11434/v1",
    api_key="ollama",
)

messages = [
    {
        "role": "user",
        "content": "What is the capital of France?"
    }
]

completion = client.chat.completions.create(
    model="hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
    messages=messages,
)

print(completion.choices[0].message.content)