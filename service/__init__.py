"""A SPARQL-first question engine for a personal portfolio."""

__version__ = "0.1.0"
