"""The web app: ask page, JSON API, wiki and entity pages (Starlette, served by uvicorn)."""
