// Package goexample holds Go launchers that `gotriton compile --lang go` wrote for two of
// gotriton's own kernels, and tests that run them on a GPU (GOTRITON_CUDA=1) and check
// that they are what gotriton writes today. Regenerate them with `go generate`.
package goexample

//go:generate go run ../../../cmd/gotriton compile --no-cache ../../../conformance/kernels/vector_add.py -n vector_add_kernel -s "*fp32:16, *fp32:16, *fp32:16, i32, 1024" -g "(numel + 1023) / 1024, 1, 1" -w 4 --lang go --go-package goexample -on vector_add -o vector_add
//go:generate go run ../../../cmd/gotriton compile --no-cache ../../../conformance/kernels/matmul.py -n grouped_matmul_kernel -s "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 256, 64, 8, None" -g "((M + 127) / 128) * ((N + 255) / 256), 1, 1" -w 8 -ns 3 --lang go --go-package goexample -on matmul -o matmul
