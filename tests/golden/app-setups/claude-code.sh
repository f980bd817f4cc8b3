# Claude Code speaks Anthropic's Messages API: HubDesk's server answers it at /v1/messages (no /v1 here).
export ANTHROPIC_BASE_URL=http://127.0.0.1:11435
# Sent as "Authorization: Bearer"; an ANTHROPIC_API_KEY left set would conflict with it.
export ANTHROPIC_AUTH_TOKEN="$HUBDESK_LOCAL_SERVER_KEY"
unset ANTHROPIC_API_KEY
export ANTHROPIC_MODEL=bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf
# Background work (titles, the Explore agent) asks for the Haiku tier: the same local model answers it.
export ANTHROPIC_DEFAULT_HAIKU_MODEL=bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf
claude