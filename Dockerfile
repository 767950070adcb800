# The site in one image: dependencies, the demo knowledge base built at image build time, uvicorn serving.
# (Docker cannot run on the development machine; this file is kept simple and is not exercised by the tests.)
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
RUN pip install --no-cache-dir .
COPY ontology ./ontology
COPY data ./data
COPY wiki ./wiki
COPY queries ./queries
ENV KB_DIR=/app/var/kb CACHE_DIR=/app/var/cache ONTOLOGY_DIR=/app/ontology DATA_DIR=/app/data WIKI_DIR=/app/wiki QUERIES_DIR=/app/queries
RUN python -m service build
EXPOSE 8000
CMD ["python", "-m", "service", "serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]
