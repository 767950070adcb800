# The site in one image: dependencies, the demo knowledge base built at image build time, uvicorn serving as an
# unprivileged user. Docker cannot run on the development machine: tests/test_deploy.py checks what can be checked
# without it (every setting the compose files give is one the image honours, commands parse, health conditions).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
# the PostgreSQL extra: docker-compose.yml keeps the question log in PostgreSQL
RUN pip install --no-cache-dir ".[postgres]"
COPY ontology ./ontology
COPY data ./data
COPY wiki ./wiki
COPY queries ./queries
ENV KB_DIR=/app/var/kb CACHE_DIR=/app/var/cache ONTOLOGY_DIR=/app/ontology DATA_DIR=/app/data WIKI_DIR=/app/wiki \
    QUERIES_DIR=/app/queries LOG_DATABASE_URL=sqlite:////app/var/log/questions.sqlite3 WORKERS=2
# the build, the question log and the compose file's shared KB volume (/kb) belong to the serving user; a named
# volume mounted there starts with this ownership
RUN useradd --system --uid 10001 --no-create-home --home-dir /app folio \
    && python -m service build \
    && mkdir -p /app/var/log /kb \
    && chown -R folio /app/var /kb
USER folio
VOLUME ["/app/var/log"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz')"]
CMD ["python", "-m", "service", "serve", "--host", "0.0.0.0", "--port", "8000"]
