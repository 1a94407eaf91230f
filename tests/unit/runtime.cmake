# Runtime unit tests.
