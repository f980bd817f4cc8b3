curl http://127.0.0.1:11434/api/generate \
    -H 'Content-Type: application/json' \
    -d '{
        "model": "hf.co/unsloth/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
        "prompt": "What is the capital of France?",
        "stream": false
    }'