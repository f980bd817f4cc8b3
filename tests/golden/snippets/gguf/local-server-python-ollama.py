from ollama import Client

client = Client(host="http://127.0.0.1:11434")

messages = [
    {
        "role": "user",
        "content": "What is the capital of France?"
    }
]

response = client.chat(
    model="hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
    messages=messages,
)

print(response["message"]["content"])