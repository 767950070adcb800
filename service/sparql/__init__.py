"""The public SPARQL endpoint's core: safety checks, result formats, and the pool of worker processes."""
