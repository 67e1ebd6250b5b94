#!/usr/bin/env bash
# Checks gotriton's ahead-of-time output against Triton 3.6's triton.tools.compile and
# triton.tools.link, and runs both on the GPU. Run it from the repository root on the GPU
# machine (Triton 3.6 + torch, CUDA with ptxas, gcc):
#
#     CGO_ENABLED=0 go build -o .build/gotriton ./cmd/gotriton                         # here
#     CGO_ENABLED=0 go test -c -o .build/aot-go.test ./aot/internal/goexample          # here
#     OUT=/some/dir tools/aot-gpu.sh                                                    # there
#
# Kernels: add_kernel of the official 01-vector-add.py and matmul_kernel (with leaky_relu)
# of 03-matrix-multiplication.py (TUTORIALS=DIR or GOTRITON_TUTORIALS=DIR, else .tutorials
# or .build/tutorials). Importing a tutorial runs its benchmarks, so the kernels are first
# copied out of it with Python's ast into $OUT/src/k01.py and k03.py (plain @triton.jit
# functions; matmul_kernel loses its @triton.autotune, and ACTIVATION is 0 because
# triton.tools.compile only takes numbers as constexprs). Both compilers read those files.
#
# Steps:
#   1. python -m triton.tools.compile and gotriton compile with the same flags: two
#      specializations of add_kernel (one algorithm in two hint variants) and three of
#      matmul_kernel (two algorithms, the second in two hint variants), into $OUT/triton,
#      $OUT/cubin (gotriton with ptxas) and $OUT/ptx (gotriton --ptxas none: embedded PTX);
#      then python -m triton.tools.link and gotriton link over each folder's headers, once
#      per kernel (add_kernels.{c,h}, matmul_kernels.{c,h}).
#   2. The same file names in all three folders, the same declarations in every header
#      (prototypes and // tt-linker: lines), the same functions defined in every .c, and
#      the same declarations in the linked headers (Triton's "()" read as "(void)").
#   3. $OUT/main.c, built against libcuda with each folder's launchers and dispatcher,
#      runs vector add (n = 98432 and 98431: the two hint variants) and every matmul
#      algorithm (512^3 and 500^3, inputs in {-1, 0, 1}, so the fp16 results are exact)
#      and compares every element with a CPU reference. Triton's folder is the control.
#   4. gotriton only (triton.tools.compile cannot pass them): a kernel taking two host
#      tensor descriptors (aot/testdata/desc_copy.py) doubles a 96 x 320 fp16 tensor
#      through gotriton's linked C launcher, which encodes the tensor maps.
#   5. The Go launchers of aot/internal/goexample (gotriton compile --lang go) run vector
#      add and a matmul through driver/cuda: .build/aot-go.test -test.run OnGPU
#      (GOTEST=FILE), skipped with a note when the test binary is missing.
# Prints one line per check; details are in $OUT/*.txt. Exit status 0 when all pass.
# With SAVE_GOLDEN=1, Triton's declarations ($OUT/decls-triton.txt) are also copied to
# aot/testdata/triton-3.6/aot-decls.txt, which `GOTRITON_TUTORIALS=... go test ./aot -run
# TritonDecls` compares with gotriton's own, made here without a GPU: commit that file.
#
# Settings: GOTRITON=.build/gotriton  GOTEST=.build/aot-go.test  PYTHON=python3  PTXAS=ptxas  CC=gcc
set -u
export LC_ALL=C # sort in byte order, as aot's TestTritonDecls does
: "${OUT:?set OUT to the output folder}"
REPO=$(pwd)
GT=$(realpath "${GOTRITON:-.build/gotriton}")
GOTEST=$(realpath "${GOTEST:-.build/aot-go.test}" 2>/dev/null || true)
PY=${PYTHON:-python3}
PTXAS=$(command -v "${PTXAS:-ptxas}" || true)
CC=${CC:-gcc}
TUT=${TUTORIALS:-${GOTRITON_TUTORIALS:-}}
if [ -z "$TUT" ]; then
  for d in .tutorials .build/tutorials; do [ -f "$d/01-vector-add.py" ] && TUT=$d && break; done
fi
[ -x "$GT" ] || { echo "aot-gpu: no gotriton at $GT (set GOTRITON)"; exit 2; }
[ -n "$TUT" ] && [ -f "$TUT/01-vector-add.py" ] || { echo "aot-gpu: no tutorials folder (set TUTORIALS)"; exit 2; }
[ -n "$PTXAS" ] || { echo "aot-gpu: no ptxas (set PTXAS)"; exit 2; }
rm -rf "$OUT"/{src,triton,cubin,ptx,desc}
mkdir -p "$OUT"/{src,triton,cubin,ptx}
OUT=$(realpath "$OUT")
FAIL=0
check() { # check NAME STATUS: prints one result line, remembers a failure
  if [ "$2" = 0 ]; then echo "ok    $1"; else echo "FAIL  $1 (see $OUT)"; FAIL=1; fi
}

"$PY" - "$TUT" "$OUT/src" <<'EOF'
import ast, os, sys
tut, out = sys.argv[1], sys.argv[2]
for src_name, dst, names in [("01-vector-add.py", "k01.py", ["add_kernel"]),
                             ("03-matrix-multiplication.py", "k03.py", ["matmul_kernel", "leaky_relu"])]:
    text = open(os.path.join(tut, src_name)).read()
    lines = text.splitlines()
    parts = ["import triton", "import triton.language as tl", ""]
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            parts += ["", "@triton.jit", "\n".join(lines[node.lineno - 1:node.end_lineno]), ""]
    open(os.path.join(out, dst), "w").write("\n".join(parts) + "\n")
EOF

# Each line: file kernel out-name warps stages grid signature
SPECS=$(cat <<'EOF'
k01.py|add_kernel|add_kernel|4|3|(n_elements + 1023) / 1024, 1, 1|*fp32:16, *fp32:16, *fp32:16, i32, 1024
k01.py|add_kernel|add_kernel|4|3|(n_elements + 1023) / 1024, 1, 1|*fp32:16, *fp32:16, *fp32:16, i32:16, 1024
k03.py|matmul_kernel|matmul_fp16|4|3|((M + 63) / 64) * ((N + 63) / 64), 1, 1|*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 64, 64, 32, 8, 0
k03.py|matmul_kernel|matmul_fp16|8|3|((M + 127) / 128) * ((N + 127) / 128), 1, 1|*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32:1, i32, i32:1, i32, i32:1, 128, 128, 64, 8, 0
k03.py|matmul_kernel|matmul_fp16|8|3|((M + 127) / 128) * ((N + 127) / 128), 1, 1|*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 64, 8, 0
EOF
)

# 1. compile and link
compile_all() { # compile_all FOLDER COMMAND...: every spec into FOLDER, then link
  local dir=$1; shift
  local status=0
  while IFS='|' read -r file kernel outname warps stages grid sig; do
    (cd "$OUT/$dir" && "$@" "$OUT/src/$file" -n "$kernel" -s "$sig" -g "$grid" -w "$warps" -ns "$stages" \
      -on "$outname" -o "$outname") >>"$OUT/compile-$dir.txt" 2>&1 || status=1
  done <<<"$SPECS"
  return $status
}
compile_all triton "$PY" -m triton.tools.compile; check "compile: triton.tools.compile" $?
compile_all cubin "$GT" compile --no-cache --ptxas "$PTXAS"; check "compile: gotriton, cubin" $?
compile_all ptx "$GT" compile --no-cache --ptxas none; check "compile: gotriton, PTX" $?
# One dispatcher per kernel: link.py mixes up the headers of two kernels.
link_all() { # link_all FOLDER COMMAND...
  local dir=$1; shift
  (cd "$OUT/$dir" && "$@" add_kernel.*.h -o add_kernels && "$@" matmul_fp16.*.h -o matmul_kernels) >"$OUT/link-$dir.txt" 2>&1
}
link_all triton "$PY" -m triton.tools.link; check "link: triton.tools.link" $?
for d in cubin ptx; do
  link_all $d "$GT" link; check "link: gotriton link ($d)" $?
done

# 2. names, prototypes, tt-linker lines
decls() { # the declarations of a folder's files, one per line, normalized
  local dir=$1
  (cd "$OUT/$dir" && ls -1 | grep -v '\.json$' | sort)
  for h in $(cd "$OUT/$dir" && ls -1 *.h | sort); do
    echo "== $h"
    grep -E '^(CUresult|void|int|// tt-linker)' "$OUT/$dir/$h" | sed -e 's/()/(void)/' -e 's/ *$//' | sort
  done
  for c in $(cd "$OUT/$dir" && ls -1 *.c | sort); do
    echo "== $c"
    grep -oE '^(CUresult|void|int) [A-Za-z_0-9]+\(' "$OUT/$dir/$c" | sort -u
  done
}
decls triton >"$OUT/decls-triton.txt"
[ "${SAVE_GOLDEN:-}" = 1 ] && mkdir -p aot/testdata/triton-3.6 && cp "$OUT/decls-triton.txt" aot/testdata/triton-3.6/aot-decls.txt
for d in cubin ptx; do
  decls $d >"$OUT/decls-$d.txt"
  diff "$OUT/decls-triton.txt" "$OUT/decls-$d.txt" >"$OUT/diff-$d.txt"
  check "same file names, prototypes, tt-linker lines, functions as Triton ($d)" $?
done

# 3. run
cat >"$OUT/main.c" <<'EOF'
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "add_kernels.h"
#include "matmul_kernels.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

static float half_to_float(uint16_t h) { /* finite values only */
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(1024 + m), e - 25);
  return h >> 15 ? -v : v;
}

static int vector_add(CUstream stream, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 1000) / 7.0f; y[i] = (float)(i % 333) * 0.5f; }
  CUdeviceptr dx, dy, dout;
  CHECK(cuMemAlloc(&dx, bytes)); CHECK(cuMemAlloc(&dy, bytes)); CHECK(cuMemAlloc(&dout, bytes));
  CHECK(cuMemcpyHtoD(dx, x, bytes)); CHECK(cuMemcpyHtoD(dy, y, bytes)); CHECK(cuMemsetD8(dout, 0xff, bytes));
  CHECK(add_kernel_default(stream, dx, dy, dout, n));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(out, dout, bytes));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += out[i] != x[i] + y[i];
  printf("vector add n=%d: %d wrong\n", n, bad);
  cuMemFree(dx); cuMemFree(dy); cuMemFree(dout); free(x); free(y); free(out);
  return bad != 0;
}

static int matmul(CUstream stream, int algo, int n) {
  size_t elems = (size_t)n * n;
  uint16_t *a = malloc(elems * 2), *b = malloc(elems * 2), *c = malloc(elems * 2);
  float *fa = malloc(elems * 4), *fb = malloc(elems * 4);
  const uint16_t vals[3] = {0xbc00, 0x0000, 0x3c00}; /* -1, 0, 1 */
  for (size_t i = 0; i < elems; i++) {
    a[i] = vals[(i * 7 + i / 3) % 3];
    b[i] = vals[(i * 5 + i / n) % 3];
    fa[i] = half_to_float(a[i]);
    fb[i] = half_to_float(b[i]);
  }
  CUdeviceptr da, db, dc;
  CHECK(cuMemAlloc(&da, elems * 2)); CHECK(cuMemAlloc(&db, elems * 2)); CHECK(cuMemAlloc(&dc, elems * 2));
  CHECK(cuMemcpyHtoD(da, a, elems * 2)); CHECK(cuMemcpyHtoD(db, b, elems * 2)); CHECK(cuMemsetD8(dc, 0xff, elems * 2));
  CHECK(matmul_fp16(stream, da, db, dc, n, n, n, n, 1, n, 1, n, 1, algo));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuMemcpyDtoH(c, dc, elems * 2));
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float want = 0;
      for (int k = 0; k < n; k++) want += fa[(size_t)i * n + k] * fb[(size_t)k * n + j];
      bad += half_to_float(c[(size_t)i * n + j]) != want;
    }
  printf("matmul algo %d n=%d: %d wrong\n", algo, n, bad);
  cuMemFree(da); cuMemFree(db); cuMemFree(dc); free(a); free(b); free(c); free(fa); free(fb);
  return bad != 0;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUstream stream;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuStreamCreate(&stream, 0));
  load_add_kernel();
  load_matmul_fp16();
  int fails = vector_add(stream, 98432) + vector_add(stream, 98431);
  printf("matmul algorithms: %d\n", matmul_fp16_get_num_algos());
  for (int algo = 0; algo < matmul_fp16_get_num_algos(); algo++)
    fails += matmul(stream, algo, 512) + matmul(stream, algo, 500);
  unload_add_kernel();
  unload_matmul_fp16();
  return fails != 0;
}
EOF
CUDA_INC=$("$PY" -c 'from triton.backends.nvidia.driver import include_dirs; print(include_dirs[0])' 2>/dev/null)
CUDA_LIBS=$("$PY" -c 'from triton.backends.nvidia.driver import library_dirs; print(" ".join("-L" + d for d in library_dirs()))' 2>/dev/null)
for d in triton cubin ptx; do
  # Triton's compile.c calls exit() without <stdlib.h>, an error for gcc 14 by default.
  lax=; [ $d = triton ] && lax=-Wno-error=implicit-function-declaration
  (cd "$OUT/$d" && $CC -O2 $lax -I. ${CUDA_INC:+-I"$CUDA_INC"} ../main.c ./*.c $CUDA_LIBS -lcuda -lm -o test) >"$OUT/build-$d.txt" 2>&1 &&
    (cd "$OUT/$d" && timeout 120 ./test) >"$OUT/run-$d.txt" 2>&1
  check "run: vector add and matmul through the linked launchers ($d)" $?
done

# 4. Host tensor descriptors, gotriton only: aot/testdata/desc_copy.py doubles a 96 x 320
# fp16 tensor through two descriptors, whose tensor maps the launcher encodes.
mkdir -p "$OUT/desc"
cat >"$OUT/desc-main.c" <<'EOF'
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "desc_kernels.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

int main(void) {
  enum { M = 96, N = 320 };
  CUdevice dev;
  CUcontext ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  static uint16_t src[M * N], dst[M * N];
  for (int i = 0; i < M * N; i++) src[i] = 0x3c00 + (i % 512); /* fp16 in [1, 1.5) */
  CUdeviceptr dsrc, ddst;
  CHECK(cuMemAlloc(&dsrc, sizeof src)); CHECK(cuMemAlloc(&ddst, sizeof dst));
  CHECK(cuMemcpyHtoD(dsrc, src, sizeof src)); CHECK(cuMemsetD8(ddst, 0xff, sizeof dst));
  tt_tensordesc2 s = {dsrc, {M, N}, {N, 1}}, d = {ddst, {M, N}, {N, 1}};
  CHECK(desc_copy_default(0, s, d, M, N));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(dst, ddst, sizeof dst));
  int bad = 0;
  for (int i = 0; i < M * N; i++) bad += dst[i] != src[i] + 0x0400; /* x * 2: exponent + 1 */
  printf("descriptor copy %dx%d: %d wrong\n", M, N, bad);
  return bad != 0;
}
EOF
(cd "$OUT/desc" && rm -f desc_copy.* desc_kernels.* &&
  "$GT" compile --no-cache --ptxas "$PTXAS" "$REPO/aot/testdata/desc_copy.py" -n desc_copy_kernel \
    -s "tensordesc<fp16[32, 64]>, tensordesc<fp16[32, 64]>, i32, i32, 32, 64" -g "M / 32, N / 64, 1" -w 4 -on desc_copy -o desc_copy &&
  "$GT" link desc_copy.*.h -o desc_kernels &&
  $CC -O2 -I. ${CUDA_INC:+-I"$CUDA_INC"} ../desc-main.c ./*.c $CUDA_LIBS -lcuda -o test && timeout 60 ./test) >"$OUT/run-desc.txt" 2>&1
check "run: host tensor descriptors through gotriton's C launcher (cubin)" $?

# 5. Go launchers
if [ -x "$GOTEST" ]; then
  GOTRITON_CUDA=1 timeout 120 "$GOTEST" -test.run 'OnGPU' -test.v >"$OUT/run-go.txt" 2>&1 &&
    grep -q -- '--- PASS: TestOnGPU' "$OUT/run-go.txt"
  check "run: vector add and matmul through Go launchers (driver/cuda)" $?
else
  echo "skip  Go launchers: no $GOTEST"
fi
exit $FAIL
