import os

from langchain_openai import ChatOpenAI

# HubDesk's local server; the key comes from the environment (export HUBDESK_LOCAL_SERVER_KEY=...).
llm = ChatOpenAI(
    model="bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
    base_url="http://127.0.0.1:11435/v1",
    api_key=os.environ["HUBDESK_LOCAL_SERVER_KEY"],
)

for chunk in llm.stream("Say hello in one sentence."):
    print(chunk.content, end="", flush=True)
print()