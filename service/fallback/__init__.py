"""The guarded model fallback (main seed §8): weak or unanswered plans go to a language model with numbered
evidence and two tools, and its answer is kept only if the verifier finds it in that evidence.

Nothing here runs unless LLM_ENABLED is true and LLM_BASE_URL is set (`Settings.load().enabled`); planning
never imports this package. docs/MODEL.md says what is sent, what is checked, and the verifier's limits.
"""
