import os

from openai import OpenAI

# HubDesk's local server; the key comes from the environment (export HUBDESK_LOCAL_SERVER_KEY=...).
client = OpenAI(
    base_url="http://127.0.0.1:11435/v1",
    api_key=os.environ["HUBDESK_LOCAL_SERVER_KEY"],
)

stream = client.chat.completions.create(
    model="bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
    messages=[{"role": "user", "content": "Say hello in one sentence."}],
    stream=True,
)
for chunk in stream:
    # The last chunk can carry only the token usage, without choices.
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)
print()