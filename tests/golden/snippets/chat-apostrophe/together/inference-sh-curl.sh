curl https://router.huggingface.co/v1/chat/completions \
    -H "Authorization: Bearer $HF_TOKEN" \
    -H 'Content-Type: application/json' \
    -d '{
        "messages": [
            {
                "role": "user",
                "content": "What'\''s the capital of France? It'\''s '\''Paris'\'', isn'\''t it?"
            }
        ],
        "model": "meta-llama/Llama-3.1-8B-Instruct:together",
        "stream": false
    }'