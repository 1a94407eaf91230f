# Loader unit tests.
