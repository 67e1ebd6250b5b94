package lower

import (
	"strings"
	"testing"

	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// TestHostDescriptorABI lowers Triton's TTIR of the persistent TMA matmul, whose three
// host descriptors are parameters, and checks gotriton's ABI: each descriptor is an
// i8 addrspace(1)* (a .u64 global address) followed by its two i32 shapes and two i64
// strides, then M, N, K and the two scratch pointers; and the descriptor accesses are
// scalar (nothing is known of the base's alignment).
func TestHostDescriptorABI(t *testing.T) {
	ll, _, err := lowerFile(t, "persistent_matmul.matmul_tma_persistent_kernel.default")
	if err != nil {
		t.Fatal(err)
	}
	desc := "i8 addrspace(1)* %0, i32 %1, i32 %2, i64 %3, i64 %4, i8 addrspace(1)* %5, i32 %6, i32 %7, i64 %8, i64 %9, i8 addrspace(1)* %10, i32 %11, i32 %12, i64 %13, i64 %14, i32 %15, i32 %16, i32 %17, i8 addrspace(1)* %18, i8 addrspace(1)* %19)"
	if !strings.Contains(ll, "@matmul_tma_persistent_kernel("+desc) {
		t.Errorf("parameters are not the host-descriptor ABI; the function starts %q", ll[strings.Index(ll, "@matmul_tma_persistent_kernel("):][:400])
	}
	if ld, st := widestAccesses(ll); ld != 16 || st != 16 {
		t.Errorf("descriptor accesses of %d/%d bits, want scalar fp16", ld, st)
	}
}

// TestHostDescriptorParamsChecked rejects a descriptor parameter that is not followed by
// its shape and strides.
func TestHostDescriptorParamsChecked(t *testing.T) {
	src := `module {
  tt.func public @k(%d: !tt.tensordesc<tensor<16x16xf16>>, %s0: i32, %s1: i64) {
    tt.return
  }
}`
	m, err := tileir.Parse("k", src)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Lower(m, target.Default, Options{NumWarps: 4})
	if err == nil || !strings.Contains(err.Error(), "shape and stride parameters") {
		t.Errorf("got %v, want an error about the descriptor's shape and strides", err)
	}
}
