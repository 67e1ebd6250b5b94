package simt

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/llir/llvm/ir/types"

	"github.com/gotriton/gotriton/driver"
)

// mfmaKernel is one wavefront running llvm.amdgcn.mfma.<name>: lane l loads its A, B
// and C operands (of types at, bt and ct) from element l of a, b and c, and stores the
// result to element l of d.
func mfmaKernel(name, at, bt, ct string) string {
	return fmt.Sprintf(`
declare i32 @llvm.amdgcn.workitem.id.x()
declare %[4]s @llvm.amdgcn.mfma.%[1]s(%[2]s, %[3]s, %[4]s, i32, i32, i32)

define void @k(%[2]s addrspace(1)* %%a, %[3]s addrspace(1)* %%b, %[4]s addrspace(1)* %%c, %[4]s addrspace(1)* %%d, i8 addrspace(1)* %%s0, i8 addrspace(1)* %%s1) {
entry:
	%%l = call i32 @llvm.amdgcn.workitem.id.x()
	%%pa = getelementptr %[2]s, %[2]s addrspace(1)* %%a, i32 %%l
	%%pb = getelementptr %[3]s, %[3]s addrspace(1)* %%b, i32 %%l
	%%pc = getelementptr %[4]s, %[4]s addrspace(1)* %%c, i32 %%l
	%%pd = getelementptr %[4]s, %[4]s addrspace(1)* %%d, i32 %%l
	%%va = load %[2]s, %[2]s addrspace(1)* %%pa
	%%vb = load %[3]s, %[3]s addrspace(1)* %%pb
	%%vc = load %[4]s, %[4]s addrspace(1)* %%pc
	%%vd = call %[4]s @llvm.amdgcn.mfma.%[1]s(%[2]s %%va, %[3]s %%vb, %[4]s %%vc, i32 0, i32 0, i32 0)
	store %[4]s %%vd, %[4]s addrspace(1)* %%pd
	ret void
}
`, name, at, bt, ct)
}

// TestMFMA runs each MFMA instruction on one wavefront with the operands placed by the
// CDNA3 ISA's layout of its dense MFMA instructions, for n×n×k and kBase = k·n/64: A's
// A[i][k] in lane i + n·(k/kBase), element k%kBase (8-bit elements packed in one
// integer, the first lowest), B's B[k][j] in lane j + n·(k/kBase); D's D[i][j], for
// h = 4 rows a lane holds at a time (1 for f64) and g = 64/n, in lane j + n·((i/h) mod g),
// register i%h + h·(i/(h·g)). The values are small enough to sum exactly, but for one
// element of the f32 accumulators: C[1][2] = 2^24 plus k products of 1/2, which round
// once to 2^24 + k/2 (one product at a time would round back to 2^24 each time); and
// int8 sums wrap at 2^31.
func TestMFMA(t *testing.T) {
	for name, sh := range mfmaShapes {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(sh.n), uint64(sh.k)))
			n, kk, kb := sh.n, sh.k, sh.kBase()
			bIn := sh.b
			if bIn == "" {
				bIn = sh.in
			}
			A, B, C := make([][]float64, n), make([][]float64, kk), make([][]float64, n)
			for i := range n {
				A[i], C[i] = make([]float64, kk), make([]float64, n)
				for k := range kk {
					A[i][k] = float64(rng.IntN(9) - 4)
				}
				for j := range n {
					C[i][j] = float64(rng.IntN(64) - 32)
				}
			}
			for k := range kk {
				B[k] = make([]float64, n)
				for j := range n {
					B[k][j] = float64(rng.IntN(9) - 4)
				}
			}
			switch sh.acc {
			case kI32:
				C[1][2] = math.MaxInt32 - 10
				for k := range kk {
					A[1][k], B[k][2] = 4, 4 // 16·k over the top: wraps
				}
			case kF32:
				C[1][2] = 1 << 24
				for k := range kk {
					A[1][k], B[k][2] = 1, 0.5
				}
			}
			h, groups := 4, 64/n
			if sh.acc == kF64 {
				h = 1
			}
			regs := n * n / 64
			ab := make([]byte, 64*operandBytes(sh.in, kb))
			bb := make([]byte, 64*operandBytes(bIn, kb))
			cb := make([]byte, 64*regs*accBytes(sh.acc))
			for i := range n {
				for k := range kk {
					l, e := i+n*(k/kb), k%kb
					putElem(ab, sh.in, kb, l, e, A[i][k])
					putElem(bb, bIn, kb, l, e, B[k][i])
				}
			}
			place := func(i, j int) (int, int) { return j + n*(i/h%groups), i%h + h*(i/(h*groups)) }
			for i := range n {
				for j := range n {
					l, r := place(i, j)
					putAcc(cb, sh.acc, regs, l, r, C[i][j])
				}
			}
			d := New(AMD, Options{Workers: 1})
			_, k := load(t, d, mfmaKernel(name, operandType(sh.in, kb), operandType(bIn, kb),
				types.NewVector(uint64(regs), accType(sh.acc)).String()), 1, 0)
			out := upload(t, d, make([]byte, len(cb)))
			if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, ab), upload(t, d, bb), upload(t, d, cb), out); err != nil {
				t.Fatal(err)
			}
			got := download[byte](t, out)
			for i := range n {
				for j := range n {
					want := C[i][j]
					for k := range kk {
						want += A[i][k] * B[k][j]
					}
					l, r := place(i, j)
					off := (l*regs + r) * accBytes(sh.acc)
					var g float64
					switch sh.acc {
					case kI32:
						g = float64(int32(binary.LittleEndian.Uint32(got[off:])))
						want = float64(int32(int64(want)))
					case kF32:
						g = float64(math.Float32frombits(binary.LittleEndian.Uint32(got[off:])))
						want = float64(float32(want))
					case kF64:
						g = math.Float64frombits(binary.LittleEndian.Uint64(got[off:]))
					}
					if g != want {
						t.Errorf("D[%d][%d] = %v, want %v", i, j, g, want)
					}
				}
			}
		})
	}
}

// operandBytes is the size of one lane's operand of kBase elements of format in.
func operandBytes(in string, kBase int) int {
	switch in {
	case "f16", "bf16":
		return 2 * kBase
	case "f32":
		return 4
	case "f64":
		return 8
	}
	return kBase
}

// putElem writes element e of lane l's operand (of kBase elements of format in) to buf.
func putElem(buf []byte, in string, kBase, l, e int, x float64) {
	off := l*operandBytes(in, kBase) + e*operandBytes(in, kBase)/kBase
	switch in {
	case "f16":
		binary.LittleEndian.PutUint16(buf[off:], uint16(fromFloat(kF16, x)))
	case "bf16":
		binary.LittleEndian.PutUint16(buf[off:], uint16(fromFloat(kBF16, x)))
	case "f32":
		binary.LittleEndian.PutUint32(buf[off:], math.Float32bits(float32(x)))
	case "f64":
		binary.LittleEndian.PutUint64(buf[off:], math.Float64bits(x))
	case "fp8":
		buf[off] = byte(e4m3fnuz.encode(x, false))
	case "bf8":
		buf[off] = byte(e5m2fnuz.encode(x, false))
	default:
		buf[off] = byte(int8(x))
	}
}

func accBytes(k kind) int { return k.bits() / 8 }

func accType(k kind) types.Type {
	switch k {
	case kI32:
		return types.I32
	case kF64:
		return types.Double
	}
	return types.Float
}

// putAcc writes register r of lane l's accumulators (regs of kind k) to buf.
func putAcc(buf []byte, k kind, regs, l, r int, x float64) {
	off := (l*regs + r) * accBytes(k)
	switch k {
	case kI32:
		binary.LittleEndian.PutUint32(buf[off:], uint32(int32(x)))
	case kF32:
		binary.LittleEndian.PutUint32(buf[off:], math.Float32bits(float32(x)))
	case kF64:
		binary.LittleEndian.PutUint64(buf[off:], math.Float64bits(x))
	}
}
