// Package aot is gotriton's ahead-of-time toolchain, a drop-in for Triton 3.6's
// triton.tools.compile and triton.tools.link: the kernel metadata JSON that Triton keeps
// beside a compiled kernel, the C launcher and header that compile.py writes (with the
// `// tt-linker:` line), the dispatcher that link.py writes from such headers, and a
// content-addressed cache of compiled kernels.
package aot
