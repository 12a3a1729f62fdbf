# translator — multi-stage image.
#   build:   torch + the export pipeline turn the committed checkpoint into ONNX files, proving parity.
#   runtime: ONNX Runtime, gRPC and the exported model; no torch. Non-root, with a gRPC health check.
# Build: docker build -t translator .      GPU variant: Dockerfile.gpu (docker compose --profile gpu)

FROM python:3.11-slim-bookworm AS build
WORKDIR /src
# apt-get download of the corpus (valid/test splits for the parity check) needs the Debian sources.
# gcc: pip install compiles service/_rowkernel.c.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/partial
COPY pyproject.toml README.md LICENSE ./
COPY model model
COPY export export
COPY service service
COPY translator translator
COPY bench bench
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install --no-cache-dir ".[export,serve]"
RUN translator export --checkpoint model/default --out /models/en-de/1 --int8 --data /tmp/data

FROM python:3.11-slim-bookworm AS runtime
RUN useradd --create-home --uid 10001 translator
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY service service
COPY translator translator
# The compiler is needed only while pip builds service/_rowkernel.c: it leaves in the same layer.
# `python -P` imports the installed package (with the kernel), not the source in ./service.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
 && pip install --no-cache-dir ".[serve]" \
 && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* \
 && python -P -c "import importlib.util as u; assert u.find_spec('torch') is None; import service._rowkernel"
COPY --from=build /models /models
USER translator
ENV TRANSLATOR_HOST=0.0.0.0 \
    TRANSLATOR_PORT=50051 \
    TRANSLATOR_METRICS_HOST=0.0.0.0 \
    TRANSLATOR_METRICS_PORT=9464 \
    TRANSLATOR_MODEL_REPOSITORY=/models
EXPOSE 50051 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 CMD ["translator", "health", "--server", "127.0.0.1:50051"]
ENTRYPOINT ["translator", "serve"]
