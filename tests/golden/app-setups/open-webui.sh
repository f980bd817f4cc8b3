# On the host's network, 127.0.0.1 in the container is this machine; Open WebUI is then at http://localhost:8080.
docker run -d --network=host \
    -v open-webui:/app/backend/data \
    -e OPENAI_API_BASE_URL=http://127.0.0.1:11435/v1 \
    -e OPENAI_API_KEY="$HUBDESK_LOCAL_SERVER_KEY" \
    -e DEFAULT_MODELS=bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf \
    --name open-webui --restart always \
    ghcr.io/open-webui/open-webui:main