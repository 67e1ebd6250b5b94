"""A small kernel library for gotriton's import tests: helpers in a utils module, a
language-extension module imported under an alias, kernels in a subpackage."""
