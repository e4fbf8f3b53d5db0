"""Evaluation harness: loaders, metrics, runner and benchmark (run through the same services as the API)."""
