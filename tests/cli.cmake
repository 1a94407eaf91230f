# CLI tests.
