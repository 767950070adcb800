# The site in two stages. `builder` has the build's packages too (the reasoner, SHACL, rdflib): it builds the demo
# knowledge base, and docker-compose.yml's one-off `build` service runs it. The final stage serves: only the
# serving packages, the KB the builder made, an unprivileged user. Docker cannot run on the development machine:
# tests/test_deploy.py checks what can be checked without it.
FROM python:3.11-slim AS builder
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
RUN pip install --no-cache-dir ".[build,postgres]"
COPY ontology ./ontology
COPY data ./data
COPY wiki ./wiki
COPY queries ./queries
ENV KB_DIR=/app/var/kb CACHE_DIR=/app/var/cache ONTOLOGY_DIR=/app/ontology DATA_DIR=/app/data WIKI_DIR=/app/wiki \
    QUERIES_DIR=/app/queries LOG_DATABASE_URL=sqlite:////app/var/log/questions.sqlite3
# the compose file's shared KB volume (/kb) belongs to the user that builds into it: a named volume mounted there
# starts with this ownership
RUN useradd --system --uid 10001 --no-create-home --home-dir /app folio \
    && python -m service build \
    && mkdir -p /app/var/log /kb \
    && chown -R folio /app/var /kb
USER folio
CMD ["python", "-m", "service", "build"]

FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
# the PostgreSQL extra: docker-compose.yml keeps the question log in PostgreSQL; libseccomp writes the SPARQL
# workers' seccomp filter (service/sparql/sandbox.py; the base image has it for apt, named here so it stays)
RUN apt-get update && apt-get install -y --no-install-recommends libseccomp2 && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir ".[postgres]" \
    && useradd --system --uid 10001 --no-create-home --home-dir /app folio \
    && mkdir -p /app/var/log /kb \
    && chown -R folio /app/var /kb
COPY --from=builder --chown=folio /app/var /app/var
ENV KB_DIR=/app/var/kb CACHE_DIR=/app/var/cache LOG_DATABASE_URL=sqlite:////app/var/log/questions.sqlite3 WORKERS=2
USER folio
VOLUME ["/app/var/log"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz')"]
CMD ["python", "-m", "service", "serve", "--host", "0.0.0.0", "--port", "8000"]
