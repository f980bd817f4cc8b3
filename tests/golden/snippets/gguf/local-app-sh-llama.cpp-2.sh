# Start a local OpenAI-compatible server with a web UI:
llama serve -hf unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M
# Run inference directly in the terminal:
llama cli -hf unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M