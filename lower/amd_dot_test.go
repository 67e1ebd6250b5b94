package lower

import (
	le "encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/simt"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/amd"
	"github.com/gotriton/gotriton/tileir"
)

// amdPlan is the AMD ISA's plan of dot d for arch with 4 warps.
func amdPlan(t *testing.T, arch string, d isa.Dot) (isa.MMAPlan, bool) {
	t.Helper()
	return amd.New(nil, mustTarget(t, "hip:"+arch+":64"), isa.Options{NumWarps: 4}).PlanMMA(d)
}

// TestMFMAFragments checks the dot operand and amd_mfma layouts of one instruction's
// tile against the CDNA lane mapping of the MFMA instructions (n×n×k, kBase = k·n/64
// elements of A and B per lane): A[i][k] in lane i + n·(k/kBase), element k%kBase; B[k][j]
// in lane j + n·(k/kBase). The instruction's D[i][j], for h = 4 rows a lane holds at a time
// (1 for f64) and g = 64/n, is in lane j + n·((i/h) mod g), register i%h + h·(i/(h·g));
// issued with B as its first operand and A as its second it computes the result
// transposed, so C[m][n] is its D[n][m]. The layouts' registers are the fragments'
// elements in order, so that packing them kBase at a time gives the instruction's
// operands.
func TestMFMAFragments(t *testing.T) {
	for _, tc := range []struct {
		arch string
		in   tileir.Scalar
		mn   int64
	}{
		{"gfx942", tileir.F16, 32}, {"gfx942", tileir.F16, 16}, {"gfx942", tileir.BF16, 16}, {"gfx942", tileir.F32, 32},
		{"gfx942", tileir.F32, 16}, {"gfx942", tileir.I8, 32}, {"gfx942", tileir.I8, 16}, {"gfx942", tileir.F8E4M3FNUZ, 32},
		{"gfx942", tileir.F64, 32}, {"gfx90a", tileir.I8, 32}, {"gfx90a", tileir.I8, 16},
	} {
		c := tileir.F32
		if tc.in == tileir.I8 {
			c = tileir.I32
		} else if tc.in == tileir.F64 {
			c = tileir.F64
		}
		p, ok := amdPlan(t, tc.arch, isa.Dot{A: tc.in, B: tc.in, C: c, M: tc.mn, N: tc.mn, K: 64})
		if !ok {
			t.Fatalf("%s %s: no MFMA", tc.arch, tc.in)
		}
		p.Layout.Warps = []int{1, 1}
		n, kb, h := p.Layout.M, p.KWidth, 4
		if c == tileir.F64 {
			h = 1
		}
		g := 64 / n
		name := fmt.Sprintf("%s %s", tc.arch, p.Instr)
		parent := &mmaEnc{p.Layout}
		// at maps (row, col) of a tile to (lane, register) by the mapping above
		check := func(what string, l *linLayout, rows, cols int, at func(r, c int) (int, int)) {
			if l.numRegs()*64 != rows*cols {
				t.Errorf("%s %s: %d registers for a %dx%d tile", name, what, l.numRegs(), rows, cols)
				return
			}
			for r := range rows {
				for c := range cols {
					lane, reg := at(r, c)
					lc := xorBases(l.lane, lane, 2)
					rc := l.regCoord(reg)
					if got := []int{lc[0] ^ rc[0], lc[1] ^ rc[1]}; !slices.Equal(got, []int{r, c}) {
						t.Errorf("%s %s: lane %d register %d holds %v, want (%d, %d)", name, what, lane, reg, got, r, c)
						return
					}
				}
			}
		}
		check("A", mmaOperand(0, parent, p).linear([]int{n, p.K}), n, p.K, func(i, k int) (int, int) { return i + n*(k/kb), k % kb })
		check("B", mmaOperand(1, parent, p).linear([]int{p.K, n}), p.K, n, func(k, j int) (int, int) { return j + n*(k/kb), k % kb })
		check("C", parent.linear([]int{n, n}), n, n, func(m, nn int) (int, int) { return m + n*(nn/h%g), nn%h + h*(nn/(h*g)) })
	}
}

// TestAMDPlanWarps checks the amd_mfma encoding the dots of tutorial-like shapes get: the
// instruction Triton 3.6 picks and its warpsPerCTA (warpsPerTile), in TTGIR's notation.
func TestAMDPlanWarps(t *testing.T) {
	for _, tc := range []struct {
		arch string
		d    isa.Dot
		want string
	}{
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 128, N: 256, K: 64},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 128, N: 128, K: 64},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>"},
		{"gfx90a", isa.Dot{A: tileir.BF16, B: tileir.BF16, C: tileir.F32, M: 16, N: 128, K: 32},
			"#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 128, N: 16, K: 64},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 32, N: 32, K: 64},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>"}, // [1, 4] swapped: N has one tile
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 128, N: 64, K: 64, ChainHead: true},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 64, N: 64, K: 64, ChainTail: true},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F16, B: tileir.F16, C: tileir.F32, M: 2 * 32, N: 32, K: 32, Batched: true},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1, 1], instrShape = [32, 32, 8], isTransposed = true}>"},
		{"gfx942", isa.Dot{A: tileir.F64, B: tileir.F64, C: tileir.F64, M: 64, N: 64, K: 16},
			"#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 4], isTransposed = true, elementBitWidth = 64}>"},
	} {
		p, ok := amdPlan(t, tc.arch, tc.d)
		if !ok {
			t.Errorf("%s %+v: no MFMA", tc.arch, tc.d)
			continue
		}
		if got := (&mmaEnc{p.Layout}).String(); got != tc.want {
			t.Errorf("%s %+v:\n got %s\nwant %s", tc.arch, tc.d, got, tc.want)
		}
	}
}

// minifloat returns the bits of x, a number exact in the format (or 0), of a float
// format with mant mantissa bits and exponent bias bias (no subnormals).
func minifloat(x float64, mant, bias int) uint64 {
	if x == 0 {
		return 0
	}
	var sign uint64
	if x < 0 {
		sign, x = 1, -x
	}
	fr, e := math.Frexp(x) // x = fr·2^e, fr in [0.5, 1)
	m := uint64((2*fr - 1) * float64(uint64(1)<<mant))
	width := 8
	if mant == 10 {
		width = 16
	}
	return sign<<(width-1) | uint64(e-1+bias)<<mant | m
}

// dotBytes encodes xs as elements of s, little-endian.
func dotBytes(s tileir.Scalar, xs []float64) []byte {
	var out []byte
	for _, x := range xs {
		switch s {
		case tileir.F16:
			out = le.LittleEndian.AppendUint16(out, uint16(minifloat(x, 10, 15)))
		case tileir.BF16:
			out = le.LittleEndian.AppendUint16(out, uint16(math.Float32bits(float32(x))>>16))
		case tileir.F32:
			out = le.LittleEndian.AppendUint32(out, math.Float32bits(float32(x)))
		case tileir.F64:
			out = le.LittleEndian.AppendUint64(out, math.Float64bits(x))
		case tileir.I8:
			out = append(out, byte(int8(x)))
		case tileir.I32:
			out = le.LittleEndian.AppendUint32(out, uint32(int32(x)))
		case tileir.F8E4M3FNUZ:
			out = append(out, byte(minifloat(x, 3, 8)))
		case tileir.F8E5M2FNUZ:
			out = append(out, byte(minifloat(x, 2, 16)))
		case tileir.F8E4M3FN:
			out = append(out, byte(minifloat(x, 3, 7)))
		case tileir.F8E5M2:
			out = append(out, byte(minifloat(x, 2, 15)))
		}
	}
	return out
}

// decodeOut decodes element i of a result buffer of type s (f16 results are exact).
func decodeOut(s tileir.Scalar, b []byte, i int) float64 {
	switch s {
	case tileir.F32:
		return float64(math.Float32frombits(le.LittleEndian.Uint32(b[4*i:])))
	case tileir.F64:
		return math.Float64frombits(le.LittleEndian.Uint64(b[8*i:]))
	case tileir.I32:
		return float64(int32(le.LittleEndian.Uint32(b[4*i:])))
	}
	h := le.LittleEndian.Uint16(b[2*i:])
	e, m := int(h>>10&31), float64(h&0x3FF)
	v := math.Ldexp(m, -24)
	if e > 0 {
		v = math.Ldexp(m+1024, e-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// TestAMDDots lowers dots for gfx942 and gfx90a, checks the MFMA intrinsic each takes (and
// how many a thread issues: tiles per warp times K steps) or that it takes the FMA path,
// runs them in the SIMT interpreter with small integers (exact in every type), and
// compares every element with the exact product; where llc-22 is installed, the module
// must compile and its assembly hold v_mfma (or none).
func TestAMDDots(t *testing.T) {
	llc := llvmTool("llc")
	d := simt.New(simt.AMD, simt.Options{Workers: 2})
	e4, e5, e4n, e5n := tileir.F8E4M3FN, tileir.F8E5M2, tileir.F8E4M3FNUZ, tileir.F8E5M2FNUZ
	f16, bf16, f32, f64, i8, i32 := tileir.F16, tileir.BF16, tileir.F32, tileir.F64, tileir.I8, tileir.I32
	for _, tc := range []struct {
		arch  string
		dc    dotCase
		accIn bool
		instr string // "" for the FMA path
		n     int
	}{
		{"gfx942", dotCase{f16, f32, "", []int64{64, 64}, []int64{64, 64}, 4}, false, "f32.32x32x8f16", 8},    // warps 2x2: one tile, K/8 = 8
		{"gfx942", dotCase{f16, f16, "", []int64{32, 32}, []int64{32, 64}, 4}, true, "f32.32x32x8f16", 2 * 4}, // warps [4, 1] (Triton swaps [1, 4]): 2 N tiles, K/8 = 4
		{"gfx90a", dotCase{f16, f32, "", []int64{16, 64}, []int64{64, 128}, 4}, false, "f32.16x16x16f16", 2 * 4},
		{"gfx942", dotCase{bf16, f32, "", []int64{16, 32}, []int64{32, 64}, 4}, false, "f32.16x16x16bf16.1k", 2},
		{"gfx90a", dotCase{bf16, f32, "", []int64{64, 32}, []int64{32, 64}, 4}, true, "f32.32x32x8bf16.1k", 4},
		{"gfx942", dotCase{f32, f32, "", []int64{32, 32}, []int64{32, 32}, 4}, false, "f32.32x32x2f32", 16},
		{"gfx942", dotCase{f32, f32, "tf32", []int64{16, 16}, []int64{16, 16}, 1}, false, "f32.16x16x4f32", 4},
		{"gfx90a", dotCase{f32, f32, "", []int64{64, 16}, []int64{16, 64}, 4}, true, "f32.32x32x2f32", 8},
		{"gfx942", dotCase{i8, i32, "", []int64{32, 64}, []int64{64, 32}, 1}, true, "i32.32x32x16.i8", 4},
		{"gfx90a", dotCase{i8, i32, "", []int64{32, 64}, []int64{64, 32}, 1}, false, "i32.32x32x8i8", 8},
		{"gfx942", dotCase{i8, i32, "", []int64{16, 64}, []int64{64, 16}, 1}, false, "i32.16x16x32.i8", 2},
		{"gfx90a", dotCase{i8, i32, "", []int64{16, 32}, []int64{32, 16}, 1}, false, "i32.16x16x16i8", 2},
		{"gfx942", dotCase{e4n, f32, "", []int64{32, 32}, []int64{32, 32}, 1}, false, "f32.32x32x16.fp8.fp8", 2},
		{"gfx942", dotCase{e5n, f16, "", []int64{16, 64}, []int64{64, 16}, 1}, false, "f32.16x16x32.bf8.bf8", 2},
		{"gfx942", dotCase{e4, f32, "", []int64{32, 32}, []int64{32, 32}, 1}, false, "f32.32x32x8f16", 4}, // OCP fp8 widened to f16
		{"gfx90a", dotCase{e5, f16, "", []int64{32, 32}, []int64{32, 32}, 2}, false, "f32.32x32x8f16", 4},
		{"gfx942", dotCase{f64, f64, "", []int64{32, 16}, []int64{16, 32}, 4}, true, "f64.16x16x4f64", 4},
		{"gfx942", dotCase{f16, f32, "", []int64{2, 32, 32}, []int64{2, 32, 32}, 4}, false, "f32.32x32x8f16", 4},     // 2 of 4 warps repeat the batch
		{"gfx942", dotCase{f16, f32, "", []int64{4, 32, 16}, []int64{4, 16, 32}, 2}, false, "f32.32x32x8f16", 2 * 2}, // 2 batch tiles per warp
		{"gfx90a", dotCase{e4n, f32, "", []int64{16, 32}, []int64{32, 16}, 1}, false, "", 0},                         // no FNUZ MFMA on CDNA2
		{"gfx942", dotCase{f16, f32, "", []int64{8, 32}, []int64{32, 64}, 4}, false, "", 0},                          // M below 16
		{"gfx942", dotCase{e4n, f32, "", []int64{16, 16}, []int64{16, 16}, 1}, false, "", 0},                         // K below the instruction's 32
	} {
		t.Run(tc.arch+"/"+tc.dc.String(), func(t *testing.T) {
			m := dotModule(tc.dc.in, tc.dc.out, tc.dc.prec, tc.dc.a, tc.dc.b, 0, tc.accIn)
			mod, md, err := Lower(m, mustTarget(t, "hip:"+tc.arch+":64"), Options{Options: isa.Options{NumWarps: tc.dc.warps}})
			if err != nil {
				t.Fatal(err)
			}
			ll := mod.String()
			calls := regexp.MustCompile(`call <\d+ x \w+> @llvm\.amdgcn\.mfma\.([\w.]+)\(`).FindAllStringSubmatch(ll, -1)
			for _, c := range calls {
				if c[1] != tc.instr {
					t.Fatalf("calls llvm.amdgcn.mfma.%s, want %q", c[1], tc.instr)
				}
			}
			if len(calls) != tc.n {
				t.Errorf("%d MFMA calls, want %d", len(calls), tc.n)
			}
			if llc != "" {
				path := filepath.Join(t.TempDir(), "dot.ll")
				if err := os.WriteFile(path, []byte(ll), 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(llc, "-march=amdgcn", "-mcpu="+tc.arch, "-o", "-", path).CombinedOutput()
				if err != nil {
					t.Fatalf("llc: %v\n%s", err, out)
				}
				if got := strings.Contains(string(out), "v_mfma_"); got != (tc.n > 0) {
					t.Errorf("the assembly holds v_mfma: %v", got)
				}
			}
			// inputs: A[i][k] and B[k][j] in -2..2, the accumulator in -8..7
			aN, bN := numel64(tc.dc.a), numel64(tc.dc.b)
			rank := len(tc.dc.a)
			M, K, N := int(tc.dc.a[rank-2]), int(tc.dc.a[rank-1]), int(tc.dc.b[rank-1])
			batch := aN / (M * K)
			av, bv, cv := make([]float64, aN), make([]float64, bN), make([]float64, batch*M*N)
			for i := range av {
				av[i] = float64((i*7+3)%5 - 2)
			}
			for i := range bv {
				bv[i] = float64((i*5+1)%5 - 2)
			}
			if tc.accIn {
				for i := range cv {
					cv[i] = float64((i*3)%16 - 8)
				}
			}
			bufs := make([]driver.Buffer, 3)
			for i, in := range []struct {
				s  tileir.Scalar
				xs []float64
			}{{tc.dc.in, av}, {tc.dc.in, bv}, {tc.dc.out, cv}} {
				if bufs[i], err = driver.Upload(d, dotBytes(in.s, in.xs)); err != nil {
					t.Fatal(err)
				}
			}
			k, err := d.Load(mod, md.Name, simt.LoadOptions{NumWarps: md.NumWarps, SharedBytes: md.SharedBytes})
			if err != nil {
				t.Fatal(err)
			}
			if err := k.Launch(driver.Grid{1, 1, 1}, bufs[0], bufs[1], bufs[2]); err != nil {
				t.Fatal(err)
			}
			out, err := driver.Download[byte](bufs[2])
			if err != nil {
				t.Fatal(err)
			}
			for b := range batch {
				for i := range M {
					for j := range N {
						want := cv[(b*M+i)*N+j]
						for kk := range K {
							want += av[(b*M+i)*K+kk] * bv[(b*K+kk)*N+j]
						}
						if got := decodeOut(tc.dc.out, out, (b*M+i)*N+j); got != want {
							t.Fatalf("C[%d][%d][%d] = %v, want %v", b, i, j, got, want)
						}
					}
				}
			}
		})
	}
}

func numel64(s []int64) int {
	n := 1
	for _, d := range s {
		n *= int(d)
	}
	return n
}

// TestChainDots finds attention's chain of dots as Triton's isChainDotHead and
// isChainDotTail do (Q·Kᵀ feeds P·V through the softmax, in the loop body), and checks the
// warps the AMD ISA gives them for 8 warps: all along M for the head, M as far as its
// 128/32 tiles go and the rest along N for the tail.
func TestChainDots(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(ttirDir, "attention.attn_fwd_kernel.default.ttir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := tileir.Parse("attn.ttir", string(src))
	if err != nil {
		t.Fatal(err)
	}
	g := newGen(amd.Arch, mustTarget(t, "hip:gfx942:64"), Options{Options: isa.Options{NumWarps: 8}}, m.Funcs[0])
	var got []string
	g.tf.Walk(func(op *tileir.Op) bool {
		if op.Name == "tt.dot" {
			head, tail := g.chainDot(op)
			p, ok := g.planMMA(op)
			got = append(got, fmt.Sprintf("head=%v tail=%v mfma=%v warps=%v", head, tail, ok, p.Layout.Warps))
		}
		return true
	})
	want := []string{"head=true tail=false mfma=true warps=[8 1]", "head=false tail=true mfma=true warps=[4 2]"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
