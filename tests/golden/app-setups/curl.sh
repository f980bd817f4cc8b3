curl http://127.0.0.1:11435/v1/chat/completions \
    -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $HUBDESK_LOCAL_SERVER_KEY" \
    -d '{
        "model": "bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf",
        "messages": [
            {
                "role": "user",
                "content": "Say hello in one sentence."
            }
        ]
    }'