curl https://router.huggingface.co/hf-inference/models/google-bert/bert-base-uncased \
    -X POST \
    -H "Authorization: Bearer $HF_TOKEN" \
    -H 'Content-Type: application/json' \
    -d '{
        "inputs": "\"The answer to the universe is [MASK].\""
    }'