#!/usr/bin/env bash
# frank-archon: Qwen3 on vLLM in podman, started by frank-archon.service (ExecStart runs this script).
# Knobs are env-gated so the default boot is the pinned production shape.
set -euo pipefail

CONTAINER=frank-archon-qwen
IMAGE=docker.io/tcclaviger/vllm@sha256:da40296661c7a4f1e0c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d
MODEL_DIR=/home/dank/models/qwen3.8-flash-fp8
CACHE_DIR=${CACHE_DIR:-/home/dank/.cache/vllm-archon}   # torch.compile cache, survives podman rm -f
MAXLEN=${MAXLEN:-32768}
KV_BYTES=${KV_BYTES:-2147483648}
SPEC=${SPEC:-}

# The old container's log is gone after this; the journal keeps it (--log-driver journald).
podman rm -f "$CONTAINER" >/dev/null 2>&1 || true
mkdir -p "$CACHE_DIR"

exec podman run --rm --name "$CONTAINER" \
  --log-driver journald \
  --ipc=host --ulimit memlock=-1:-1 \
  --cap-add SYS_PTRACE \
  --device /dev/kfd --device /dev/dri \
  -e HIP_VISIBLE_DEVICES=0,1 -e VLLM_ROCM_USE_AITER=0 \
  -e VLLM_LOGGING_LEVEL=INFO \
  -v "$MODEL_DIR":/models:ro \
  -v "$CACHE_DIR":/root/.cache \
  -p 7770:7770 \
  "$IMAGE" /models \
  --served-model-name qwen --port 7770 \
  --tensor-parallel-size 2 \
  --max-model-len "$MAXLEN" \
  --kv-cache-memory-bytes "$KV_BYTES" \
  --max-num-seqs 4 \
  --gpu-memory-utilization 0.95 \
  --enable-prefix-caching --trust-remote-code \
  --reasoning-parser qwen3 \
  --enable-auto-tool-choice --tool-call-parser qwen3_xml \
  --default-chat-template-kwargs '{"enable_thinking": true, "preserve_thinking": true}' \
  ${SPEC:+--speculative-config "{\"method\": \"mtp\", \"num_speculative_tokens\": $SPEC}"}
