package simt

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/llir/llvm/asm"

	"github.com/gotriton/gotriton/driver"
)

// load parses an LLVM IR kernel @k and loads it on d, or on a fresh device (with two
// workers, to run programs at once) when d is nil.
func load(t *testing.T, d *Device, src string, warps, shared int) (*Device, *Kernel) {
	t.Helper()
	return loadWith(t, d, src, LoadOptions{NumWarps: warps, SharedBytes: shared})
}

// loadWith is load with all of the launch options.
func loadWith(t *testing.T, d *Device, src string, opts LoadOptions) (*Device, *Kernel) {
	t.Helper()
	m, err := asm.ParseString("k.ll", src)
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		d = New(NVIDIA, Options{Workers: 2})
	}
	k, err := d.Load(m, "k", opts)
	if err != nil {
		t.Fatal(err)
	}
	return d, k
}

func upload[T driver.Elem](t *testing.T, d *Device, xs []T) *Buffer {
	t.Helper()
	b, err := driver.Upload(d, xs)
	if err != nil {
		t.Fatal(err)
	}
	return b.(*Buffer)
}

func download[T driver.Elem](t *testing.T, b *Buffer) []T {
	t.Helper()
	xs, err := driver.Download[T](b)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

const header = `
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
@global_smem = external addrspace(3) global [0 x i8], align 16
`

const addKernel = header + `
define void @k(float addrspace(1)* %a, float addrspace(1)* %b, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%pid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
	%base = mul i32 %pid, 32
	%i = add i32 %base, %tid
	%pa = getelementptr float, float addrspace(1)* %a, i32 %i
	%pb = getelementptr float, float addrspace(1)* %b, i32 %i
	%x = load float, float addrspace(1)* %pa, align 4
	%y = load float, float addrspace(1)* %pb, align 4
	%z = fadd float %x, %y
	%po = getelementptr float, float addrspace(1)* %out, i32 %i
	store float %z, float addrspace(1)* %po, align 4
	ret void
}
`

func TestAddAndBounds(t *testing.T) {
	d, k := load(t, nil, addKernel, 1, 0)
	a := make([]float32, 64)
	b := make([]float32, 64)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	ba, bb, out := upload(t, d, a), upload(t, d, b), upload(t, d, make([]float32, 64))
	if err := k.Launch(driver.Grid{2, 1, 1}, ba, bb, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range download[float32](t, out) {
		if v != float32(i)+0.5 {
			t.Fatalf("out[%d] = %v, want %v", i, v, float32(i)+0.5)
		}
	}
	// A 40-element input: thread 8 of program 1 reads element 40, past its end.
	short := upload(t, d, a[:40])
	err := k.Launch(driver.Grid{2, 1, 1}, ba, short, out)
	want := fmt.Sprintf("simt: @k: program (1, 0, 0) thread 8 (warp 0, lane 8): %%y = load float, float addrspace(1)* %%pb, align 4: load: address %#x (4 bytes) is outside buffer %d [%#x, %#x)",
		short.Addr()+160, short.id, short.Addr(), short.Addr()+160)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if err := k.Launch(driver.Grid{1, 1, 1}, ba, bb); err == nil || !strings.Contains(err.Error(), "2 arguments for 3 parameters") {
		t.Fatalf("got %v", err)
	}
}

// A loop whose trip count differs per lane (i = tid; i < n; i += 16) diverges and
// reconverges; the phis of lanes that left early keep their values.
const loopKernel = header + `
define void @k(i32 addrspace(1)* %out, i32 %n, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	br label %head
head:
	%i = phi i32 [ %tid, %entry ], [ %next, %body ]
	%count = phi i32 [ 0, %entry ], [ %count1, %body ]
	%more = icmp slt i32 %i, %n
	br i1 %more, label %body, label %exit
body:
	%count1 = add i32 %count, 1
	%next = add i32 %i, 16
	br label %head
exit:
	%odd = and i32 %tid, 1
	%isodd = icmp eq i32 %odd, 1
	br i1 %isodd, label %then, label %join
then:
	%neg = sub i32 0, %count
	br label %join
join:
	%r = phi i32 [ %neg, %then ], [ %count, %exit ]
	%p = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
	store i32 %r, i32 addrspace(1)* %p, align 4
	%sum = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %r, i32 1, i32 31)
	%p2 = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
	%q = getelementptr i32, i32 addrspace(1)* %p2, i32 32
	store i32 %sum, i32 addrspace(1)* %q, align 4
	ret void
}
`

func TestDivergentLoop(t *testing.T) {
	d, k := load(t, nil, loopKernel, 1, 0)
	out := upload(t, d, make([]int32, 64))
	if err := k.Launch(driver.Grid{1, 1, 1}, out, int32(40)); err != nil {
		t.Fatal(err)
	}
	got := download[int32](t, out)
	for l := range 32 {
		want := int32(0)
		for i := l; i < 40; i += 16 {
			want++
		}
		if l%2 == 1 {
			want = -want
		}
		if got[l] != want {
			t.Errorf("lane %d: count %d, want %d", l, got[l], want)
		}
	}
	for l := range 32 {
		if got[32+l] != got[l^1] {
			t.Errorf("lane %d: shuffle gives %d, want lane %d's %d", l, got[32+l], l^1, got[l^1])
		}
	}
}

const divergentBarrier = header + `
define void @k(i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%low = icmp ult i32 %tid, 40
	br i1 %low, label %then, label %done
then:
	call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
	br label %done
done:
	ret void
}
`

func TestBarrierInDivergentCode(t *testing.T) {
	_, k := load(t, nil, divergentBarrier, 2, 0)
	err := k.Launch(driver.Grid{1, 1, 1})
	want := "simt: @k: program (0, 0, 0) thread 40 (warp 1, lane 8): call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0): barrier while thread 40 is on another path (the program's threads diverged)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// Warp 0 writes shared memory, then warp 1 reads it: without the barrier between them
// that is a race.
func sharedKernel(barrier string) string {
	return header + `
define void @k(i32 addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to i32 addrspace(3)*
	%lane = and i32 %tid, 31
	%ps = getelementptr i32, i32 addrspace(3)* %smem, i32 %lane
	%w0 = icmp ult i32 %tid, 32
	br i1 %w0, label %write, label %next
write:
	store i32 %tid, i32 addrspace(3)* %ps, align 4
	br label %next
next:
	` + barrier + `
	%x = load i32, i32 addrspace(3)* %ps, align 4
	%po = getelementptr i32, i32 addrspace(1)* %out, i32 %tid
	store i32 %x, i32 addrspace(1)* %po, align 4
	ret void
}
`
}

func TestSharedRace(t *testing.T) {
	d, k := load(t, nil, sharedKernel("call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)"), 2, 128)
	out := upload(t, d, make([]int32, 64))
	if err := k.Launch(driver.Grid{1, 1, 1}, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range download[int32](t, out) {
		if v != int32(i%32) {
			t.Fatalf("out[%d] = %d, want %d", i, v, i%32)
		}
	}
	_, k = load(t, d, sharedKernel(""), 2, 128)
	err := k.Launch(driver.Grid{1, 1, 1}, out)
	want := "simt: @k: program (0, 0, 0) thread 32 (warp 1, lane 0): %x = load i32, i32 addrspace(3)* %ps, align 4: load: shared memory race: warp 1 reads byte 0x0 that warp 0 wrote since the last barrier"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	_, k = load(t, d, sharedKernel(""), 2, 64)
	err = k.Launch(driver.Grid{1, 1, 1}, out)
	if err == nil || !strings.Contains(err.Error(), "thread 16 (warp 0, lane 16)") || !strings.Contains(err.Error(), "shared address 0x40 (4 bytes) is outside the program's 64 bytes of shared memory") {
		t.Fatalf("got %v", err)
	}
}

// The predicated vector load lower emits: masked-off lanes keep the mov defaults.
const asmLoad = header + `
define void @k(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 %n, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%i = mul i32 %tid, 2
	%ok = icmp slt i32 %i, %n
	%p = getelementptr i32, i32 addrspace(1)* %in, i32 %i
	%v = call { i32, i32 } asm sideeffect "mov.u32 $0, 0x7;\0A\09mov.u32 $1, 0x7;\0A\09@$3 ld.global.v2.b32 { $0, $1 }, [ $2 + 0 ];", "=r,=r,l,b"(i32 addrspace(1)* %p, i1 %ok)
	%a = extractvalue { i32, i32 } %v, 0
	%b = extractvalue { i32, i32 } %v, 1
	%q = getelementptr i32, i32 addrspace(1)* %out, i32 %i
	call void asm sideeffect "st.global.v2.b32 [ $2 + 0 ], { $0, $1 };", "r,r,l"(i32 %a, i32 %b, i32 addrspace(1)* %q)
	ret void
}
`

func TestAsmLoadStore(t *testing.T) {
	d, k := load(t, nil, asmLoad, 1, 0)
	in := make([]int32, 20)
	for i := range in {
		in[i] = int32(100 + i)
	}
	bin, out := upload(t, d, in), upload(t, d, make([]int32, 64))
	if err := k.Launch(driver.Grid{1, 1, 1}, bin, out, int32(20)); err != nil {
		t.Fatal(err)
	}
	for i, v := range download[int32](t, out) {
		want := int32(7)
		if i < 20 {
			want = int32(100 + i)
		}
		if v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
	// Odd element offsets make the 8-byte vector load misaligned.
	err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, in[:1]), out, int32(0))
	if err != nil {
		t.Fatal(err) // every lane masked off: no access at all
	}
	src := strings.Replace(asmLoad, "%i = mul i32 %tid, 2", "%i = add i32 %tid, 1", 1)
	_, k = load(t, d, src, 1, 0)
	err = k.Launch(driver.Grid{1, 1, 1}, bin, out, int32(20))
	if err == nil || !strings.Contains(err.Error(), "thread 0 (warp 0, lane 0)") || !strings.Contains(err.Error(), "misaligned address") {
		t.Fatalf("got %v", err)
	}
}

// TestAsmCachePolicy runs the accesses lower writes for eviction policies: createpolicy's
// register as the cache policy operand of ld and st with .L2::cache_hint, which move the
// same data as without; a fraction outside (0, 1] and a policy operand without
// .L2::cache_hint are refused.
func TestAsmCachePolicy(t *testing.T) {
	policy := func(p string) string {
		return `%pol = call i64 asm sideeffect "createpolicy.fractional.L2::` + p + `.b64 $0, 1.0;", "=l"()` + "\n\t"
	}
	src := strings.NewReplacer(
		`%v = call`, policy("evict_last")+`%v = call`,
		`@$3 ld.global.v2.b32 { $0, $1 }, [ $2 + 0 ];", "=r,=r,l,b"(i32 addrspace(1)* %p, i1 %ok)`,
		`@$4 ld.global.L1::evict_last.L2::cache_hint.v2.b32 { $0, $1 }, [ $2 + 0 ], $3;", "=r,=r,l,l,b"(i32 addrspace(1)* %p, i64 %pol, i1 %ok)`,
		`"st.global.v2.b32 [ $2 + 0 ], { $0, $1 };", "r,r,l"(i32 %a, i32 %b, i32 addrspace(1)* %q)`,
		`"st.global.L1::evict_first.L2::cache_hint.v2.b32 [ $2 + 0 ], { $0, $1 }, $3;", "r,r,l,l"(i32 %a, i32 %b, i32 addrspace(1)* %q, i64 %pol)`,
	).Replace(asmLoad)
	if strings.Count(src, "cache_hint") != 2 || !strings.Contains(src, "createpolicy") {
		t.Fatalf("the kernel was not rewritten:\n%s", src)
	}
	d, k := load(t, nil, src, 1, 0)
	in := make([]int32, 20)
	for i := range in {
		in[i] = int32(100 + i)
	}
	out := upload(t, d, make([]int32, 64))
	if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, in), out, int32(20)); err != nil {
		t.Fatal(err)
	}
	for i, v := range download[int32](t, out) {
		want := int32(7)
		if i < 20 {
			want = int32(100 + i)
		}
		if v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
	for bad, want := range map[string]string{
		strings.Replace(src, "1.0;", "2.0;", 1):                          "fraction 2 outside (0, 1]",
		strings.Replace(src, ".L2::cache_hint.v2.b32 [", ".v2.b32 [", 1): "operands",
	} {
		m, err := asm.ParseString("k.ll", bad)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Load(m, "k", LoadOptions{NumWarps: 1}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

// A TMA load as lower writes it: one thread copies a box, zeros outside the tensor.
const tmaLoad = header + `
define void @k(i8* %desc, i32 %x, i32 %y, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to float addrspace(3)*
	%bar = getelementptr float, float addrspace(3)* %smem, i32 16
	call void asm sideeffect "{\0A.reg .pred p;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1], 1;\0A}", "r,r"(i32 %tid, float addrspace(3)* %bar)
	call void asm sideeffect "{\0A.reg .pred p;\0A.reg .b64 state;\0Asetp.eq.u32 p, $0, 0;\0A@p mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 64;\0A@!p mbarrier.arrive.shared::cta.b64 state, [$1];\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2], [$3, {$4, $5}], [$1];\0Atma_wait_1:\0Ambarrier.try_wait.shared::cta.b64 p, [$1], state;\0A@!p bra tma_wait_1;\0A}", "r,r,r,l,r,r"(i32 %tid, float addrspace(3)* %bar, float addrspace(3)* %smem, i8* %desc, i32 %x, i32 %y)
	%lt = icmp ult i32 %tid, 16
	br i1 %lt, label %copy, label %done
copy:
	%ps = getelementptr float, float addrspace(3)* %smem, i32 %tid
	%v = load float, float addrspace(3)* %ps, align 4
	%po = getelementptr float, float addrspace(1)* %out, i32 %tid
	store float %v, float addrspace(1)* %po, align 4
	br label %done
done:
	ret void
}
`

func TestTensorMapLoad(t *testing.T) {
	d, k := load(t, nil, tmaLoad, 1, 256)
	// A 3x5 tensor; the 4x4 box at (row 1, column 2) reaches past both edges.
	data := make([]float32, 15)
	for i := range data {
		data[i] = float32(i + 1)
	}
	m, err := NewTensorMap(upload(t, d, data), 4, []int64{3, 5}, []int64{5, 1}, []int64{4, 4}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := upload(t, d, make([]float32, 16))
	if err := k.Launch(driver.Grid{1, 1, 1}, m, int32(2), int32(1), out); err != nil {
		t.Fatal(err)
	}
	got := download[float32](t, out)
	for r := range 4 {
		for c := range 4 {
			want := float32(0)
			if row, col := 1+r, 2+c; row < 3 && col < 5 {
				want = data[row*5+col]
			}
			if got[r*4+c] != want {
				t.Errorf("box[%d][%d] = %v, want %v", r, c, got[r*4+c], want)
			}
		}
	}
}

func TestFloatFormats(t *testing.T) {
	for _, c := range []struct {
		f    minifloat
		x    float64
		sat  bool
		want uint64
	}{
		{half, 1, false, 0x3c00},
		{half, -2.5, false, 0xc100},
		{half, 65504, false, 0x7bff},
		{half, 65520, false, 0x7c00},              // rounds up to infinity
		{half, math.Ldexp(1, -24), false, 0x0001}, // smallest subnormal
		{half, math.Ldexp(1, -25), false, 0x0000}, // a tie: to even (zero)
		{half, math.Ldexp(3, -25), false, 0x0002}, // a tie: to even (two)
		{half, math.Inf(-1), false, 0xfc00},
		{bf16, 1, false, 0x3f80},
		{bf16, 1 + 1.0/256, false, 0x3f80}, // tie to even
		{e4m3, 448, false, 0x7e},
		{e4m3, 464, true, 0x7e},  // satfinite clamps
		{e4m3, 480, false, 0x7f}, // overflow without saturation: NaN
		{e4m3, -math.Ldexp(1, -9), false, 0x81},
		{e5m2, 57344, false, 0x7b},
		{e5m2, 1.25, false, 0x3d},
	} {
		if got := c.f.encode(c.x, c.sat); got != c.want {
			t.Errorf("%+v.encode(%v, sat=%v) = %#x, want %#x", c.f, c.x, c.sat, got, c.want)
		}
		if c.want&mask(c.f.exp+c.f.mant) != mask(c.f.exp+c.f.mant) && !math.IsInf(c.x, 0) { // not NaN: decode inverts
			if back := c.f.decode(c.want); back != c.f.decode(c.f.encode(back, false)) {
				t.Errorf("%+v: %#x decodes to %v, which does not encode back", c.f, c.want, back)
			}
		}
	}
}

// ftzKernel stores, per thread, ex2.approx and lg2.approx of its input with and without .ftz.
const ftzKernel = header + `
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.ex2.approx.ftz.f(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.lg2.approx.ftz.f(float)
define void @k(float addrspace(1)* %in, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%p = getelementptr float, float addrspace(1)* %in, i32 %tid
	%x = load float, float addrspace(1)* %p, align 4
	%e = call float @llvm.nvvm.ex2.approx.f(float %x)
	%ef = call float @llvm.nvvm.ex2.approx.ftz.f(float %x)
	%l = call float @llvm.nvvm.lg2.approx.f(float %x)
	%lf = call float @llvm.nvvm.lg2.approx.ftz.f(float %x)
	%i = mul i32 %tid, 4
	%o0 = getelementptr float, float addrspace(1)* %out, i32 %i
	store float %e, float addrspace(1)* %o0, align 4
	%o1 = getelementptr float, float addrspace(1)* %o0, i32 1
	store float %ef, float addrspace(1)* %o1, align 4
	%o2 = getelementptr float, float addrspace(1)* %o0, i32 2
	store float %l, float addrspace(1)* %o2, align 4
	%o3 = getelementptr float, float addrspace(1)* %o0, i32 3
	store float %lf, float addrspace(1)* %o3, align 4
	ret void
}
`

// TestFTZ: the .ftz forms of ex2.approx and lg2.approx flush subnormal inputs and
// results to zero (exp2(-127) is 0, log2 of a subnormal is -inf); the plain forms keep them.
func TestFTZ(t *testing.T) {
	d, k := load(t, nil, ftzKernel, 1, 0)
	sub := float32(math.Ldexp(1, -130)) // subnormal in f32
	in := make([]float32, 32)
	for i := range in {
		in[i] = 2
	}
	in[0], in[1] = -127, sub
	bin, out := upload(t, d, in), upload(t, d, make([]float32, 4*32))
	if err := k.Launch(driver.Grid{1, 1, 1}, bin, out); err != nil {
		t.Fatal(err)
	}
	got := download[float32](t, out)
	inf, nan := float32(math.Inf(-1)), float32(math.NaN())
	for i, want := range [][4]float32{
		{float32(math.Ldexp(1, -127)), 0, nan, nan},
		{1, 1, -130, inf},
		{4, 4, 1, 1},
	} {
		r := [4]float32(got[4*i : 4*i+4])
		for j := range r {
			if r[j] != want[j] && !(r[j] != r[j] && want[j] != want[j]) {
				t.Errorf("input %v: ex2, ex2.ftz, lg2, lg2.ftz = %v, want %v", in[i], r, want)
				break
			}
		}
	}
}

// divFullKernel stores, per thread, div.full.f32 of its two inputs.
const divFullKernel = header + `
declare float @llvm.nvvm.div.full(float, float)
define void @k(float addrspace(1)* %x, float addrspace(1)* %y, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%px = getelementptr float, float addrspace(1)* %x, i32 %tid
	%a = load float, float addrspace(1)* %px, align 4
	%py = getelementptr float, float addrspace(1)* %y, i32 %tid
	%b = load float, float addrspace(1)* %py, align 4
	%q = call float @llvm.nvvm.div.full(float %a, float %b)
	%po = getelementptr float, float addrspace(1)* %out, i32 %tid
	store float %q, float addrspace(1)* %po, align 4
	ret void
}
`

// TestDivFull: the simulator's div.full.f32 is the correctly rounded f32 quotient
// (hardware's is within 2 ulp of it), subnormals, infinities and NaN included.
func TestDivFull(t *testing.T) {
	d, k := load(t, nil, divFullKernel, 1, 0)
	x, y := make([]float32, 32), make([]float32, 32)
	for i := range x {
		x[i], y[i] = float32(i*7919%1000)+0.1, float32(i*104729%97)+0.3
	}
	x[0], y[0] = 1, 3
	x[1], y[1] = float32(math.Ldexp(1, -140)), 3
	x[2], y[2] = 1, 0
	x[3], y[3] = 0, 0
	x[4], y[4] = float32(math.Inf(1)), -2
	x[5], y[5] = math.MaxFloat32, 0.5
	bx, by, out := upload(t, d, x), upload(t, d, y), upload(t, d, make([]float32, 32))
	if err := k.Launch(driver.Grid{1, 1, 1}, bx, by, out); err != nil {
		t.Fatal(err)
	}
	for i, q := range download[float32](t, out) {
		if want := x[i] / y[i]; math.Float32bits(q) != math.Float32bits(want) && !(q != q && want != want) {
			t.Errorf("div.full(%v, %v) = %v, want %v", x[i], y[i], q, want)
		}
	}
}

// cpAsyncKernel has each thread store 7 into its shared slot, cp.async its float of in
// over it, commit, run wait (the asm text of a wait, or none), and store what the slot
// then holds.
func cpAsyncKernel(wait string) string {
	return header + `
define void @k(float addrspace(1)* %in, float addrspace(1)* %out, i8 addrspace(1)* %s0, i8 addrspace(1)* %s1) {
entry:
	%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
	%smem = bitcast [0 x i8] addrspace(3)* @global_smem to float addrspace(3)*
	%slot = getelementptr float, float addrspace(3)* %smem, i32 %tid
	%src = getelementptr float, float addrspace(1)* %in, i32 %tid
	store float 7.0, float addrspace(3)* %slot, align 4
	call void asm sideeffect "cp.async.ca.shared.global [$0], [$1], 4;", "r,l"(float addrspace(3)* %slot, float addrspace(1)* %src)
	call void asm sideeffect "cp.async.commit_group;", ""()
	call void asm sideeffect "` + wait + `", "~{memory}"()
	%x = load float, float addrspace(3)* %slot, align 4
	%dst = getelementptr float, float addrspace(1)* %out, i32 %tid
	store float %x, float addrspace(1)* %dst, align 4
	ret void
}
`
}

// TestCPAsync: a cp.async writes its data into shared memory only when a wait completes
// its group: a read before that sees neither the old value nor the new, but all-ones
// bytes (NaN).
func TestCPAsync(t *testing.T) {
	for _, c := range []struct {
		wait  string
		valid bool
	}{{"cp.async.wait_group 0;", true}, {"cp.async.wait_all;", true}, {"cp.async.wait_group 1;", false}, {"// none", false}} {
		d, k := load(t, nil, cpAsyncKernel(c.wait), 1, 128)
		in := make([]float32, 32)
		for i := range in {
			in[i] = float32(i) + 0.5
		}
		out := upload(t, d, make([]float32, 32))
		if err := k.Launch(driver.Grid{1, 1, 1}, upload(t, d, in), out); err != nil {
			t.Fatal(err)
		}
		for i, x := range download[float32](t, out) {
			if c.valid && x != in[i] || !c.valid && !math.IsNaN(float64(x)) {
				t.Errorf("%s: thread %d read %v", c.wait, i, x)
				break
			}
		}
	}
}
