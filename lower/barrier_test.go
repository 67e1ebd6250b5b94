package lower

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/nvidia"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// lowerModule lowers testdata TTIR to an LLVM module.
func lowerModule(t *testing.T, name string) *ir.Module {
	t.Helper()
	mod, _, err := lowerTTIR(t, name, target.Default)
	if err != nil {
		t.Fatalf("lower %s: %v", name, err)
	}
	return mod
}

// nvidiaISA is the ISA whose barriers the tests look for.
var nvidiaISA = nvidia.New(nil, target.Default, isa.Options{NumWarps: 4})

// isBarrier reports whether inst is a barrier of nvidiaISA.
func isBarrier(inst ir.Instruction) bool { return nvidiaISA.IsBarrier(inst) }

// smemAccess classifies inst as a load ('r') or store ('w') of shared memory, or 0.
func smemAccess(inst ir.Instruction) byte {
	shared := func(v value.Value) bool {
		p, ok := v.Type().(*types.PointerType)
		return ok && p.AddrSpace == 3
	}
	switch inst := inst.(type) {
	case *ir.InstLoad:
		if shared(inst.Src) {
			return 'r'
		}
	case *ir.InstStore:
		if shared(inst.Dst) {
			return 'w'
		}
	case *ir.InstCall:
		if a, ok := inst.Callee.(*ir.InlineAsm); ok {
			switch {
			case strings.Contains(a.Asm, "st.shared"):
				return 'w'
			case strings.Contains(a.Asm, "ld.shared"):
				return 'r'
			}
		}
	}
	return 0
}

// scratchHazards checks the barrier discipline of every use of shared scratch in f, over
// all paths of its control flow: a store to shared memory must not follow a shared load
// (WAR: an earlier exchange's readers may still be reading the same bytes) and a shared
// load must not follow a shared store (RAW) unless a barrier lies between them on every
// path. Stores after stores are one exchange's writes and are allowed. It returns one
// line per hazard.
func scratchHazards(f *ir.Func) []string {
	type state struct{ read, wrote bool }
	in := map[*ir.Block]state{}
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Term.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	run := func(b *ir.Block, s state, report func(string)) state {
		for i, inst := range b.Insts {
			if isBarrier(inst) {
				s = state{}
				continue
			}
			switch smemAccess(inst) {
			case 'w':
				if s.read && report != nil {
					report(b.Ident() + ": shared store after a shared load with no barrier between (WAR), at instruction " + strconv.Itoa(i))
				}
				s.wrote = true
			case 'r':
				if s.wrote && report != nil {
					report(b.Ident() + ": shared load after a shared store with no barrier between (RAW), at instruction " + strconv.Itoa(i))
				}
				s.read = true
			}
		}
		return s
	}
	out := map[*ir.Block]state{}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			var s state
			for _, p := range preds[b] {
				s.read = s.read || out[p].read
				s.wrote = s.wrote || out[p].wrote
			}
			in[b] = s
			if o := run(b, s, nil); o != out[b] {
				out[b], changed = o, true
			}
		}
	}
	var hazards []string
	for _, b := range f.Blocks {
		run(b, in[b], func(msg string) { hazards = append(hazards, msg) })
	}
	return hazards
}

// TestScratchBarriers lowers every kernel of our own set (scans aside: each thread of a
// scan reads and then rewrites the same scratch slots on its own) and checks that every
// pair of shared-memory exchanges is separated by a barrier on every path: the
// layer_norm_bwd_dx race that racecheck reported between the exchanges of lines 98 and
// 99 is of this kind.
func TestScratchBarriers(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(ttirDir, "*.ttir"))
	if len(names) == 0 {
		t.Fatal("no TTIR in " + ttirDir)
	}
	checked := 0
	for _, path := range names {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "tt.scan") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".ttir")
		if strings.Count(name, ".") != 2 {
			continue
		}
		m, err := tileir.Parse(name+".ttir", string(src))
		if err != nil {
			continue // kernels the lowering does not take are other tests' business
		}
		mod, _, err := Lower(m, target.Default, Options{Options: isa.Options{NumWarps: numWarps(name)}})
		if err != nil {
			continue
		}
		checked++
		for _, f := range mod.Funcs {
			for _, h := range scratchHazards(f) {
				t.Errorf("%s @%s: %s", name, f.Name(), h)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d kernels checked", checked)
	}
}

// TestScratchBarriersChecker makes sure the checker sees the hazards when the barriers
// are taken out of layer_norm_bwd_dx.
func TestScratchBarriersChecker(t *testing.T) {
	mod := lowerModule(t, "layer_norm.layer_norm_bwd_dx_kernel.default")
	for _, f := range mod.Funcs {
		if len(scratchHazards(f)) != 0 {
			t.Fatalf("@%s has hazards before the barriers are removed", f.Name())
		}
		for _, b := range f.Blocks {
			b.Insts = slices.DeleteFunc(b.Insts, isBarrier)
		}
		if len(f.Blocks) > 0 && len(scratchHazards(f)) == 0 {
			t.Errorf("@%s: no hazard found with the barriers removed", f.Name())
		}
	}
}

// TestOwnerAtomics pins how atomics that one owner thread performs for the whole block
// are ordered, in layer_norm_bwd_dx's lock protocol:
//
//	while tl.atomic_cas(lock, 0, 1) == 1: pass
//	seen = tl.load(written)
//	if seen == 0: tl.atomic_xchg(written, 1)
//	else: ... exchanges ...
//
// Every thread loads written, and thread 0 alone performs the xchg. Unless a barrier
// comes first, thread 0 may flip written before another warp has loaded it: the warps
// then take different branches, pair up different bar.syncs and run two exchanges on the
// same scratch at once (racecheck's hazards between lines 98 and 99, and wrong dW/dB).
// So each owner-predicated atom.global must follow a barrier with no memory access in
// between, and, as in Triton, a result nothing uses is not broadcast through shared
// memory (which put bar.syncs in the if branch).
func TestOwnerAtomics(t *testing.T) {
	for _, name := range []string{"layer_norm.layer_norm_bwd_dx_kernel.default", "layer_norm.layer_norm_bwd_dx_kernel.ragged"} {
		mod := lowerModule(t, name)
		atoms, shared := 0, 0
		for _, f := range mod.Funcs {
			for _, b := range f.Blocks {
				for i, inst := range b.Insts {
					c, ok := inst.(*ir.InstCall)
					if !ok {
						continue
					}
					a, ok := c.Callee.(*ir.InlineAsm)
					if !ok {
						continue
					}
					if strings.Contains(a.Asm, "st.shared") {
						shared++
					}
					if !strings.Contains(a.Asm, "atom.global") {
						continue
					}
					atoms++
					g := &gen{cur: &ir.Block{Insts: b.Insts[:i]}, isa: nvidiaISA}
					if !g.quietSinceBarrier(g.touchesMemory) {
						t.Errorf("%s: %q in %s is not preceded by a barrier with no memory access between", name, a.Asm, b.Ident())
					}
				}
			}
		}
		if atoms != 3 {
			t.Errorf("%s: %d atom.global, want 3 (cas, xchg written, xchg lock)", name, atoms)
		}
		if shared != 1 {
			t.Errorf("%s: %d st.shared, want 1 (only the cas result is used and broadcast)", name, shared)
		}
	}
}

// TestAtomicsMatchTriton compares the atomics of layer_norm_bwd_dx with those in the PTX
// Triton 3.6 emitted for it (when .build/triton-ref holds it): same instructions, and no
// fence or membar around them.
func TestAtomicsMatchTriton(t *testing.T) {
	want := []string{"atom.global.acq_rel.gpu.cas.b32", "atom.global.gpu.acq_rel.exch.b32", "atom.global.gpu.acq_rel.exch.b32"}
	ref, err := os.ReadFile("../.build/triton-ref/ttir/layer_norm/layer_norm_bwd_dx_kernel.ptx")
	if err == nil {
		var got []string
		for _, l := range strings.Split(string(ref), "\n") {
			if i := strings.Index(l, "atom."); i >= 0 {
				got = append(got, strings.Fields(l[i:])[0])
			}
			if strings.Contains(l, "fence.") || strings.Contains(l, "membar") {
				t.Errorf("Triton's PTX has %q: update this test", strings.TrimSpace(l))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Triton's PTX has %v, this test expects %v", got, want)
		}
	}
	mod := lowerModule(t, "layer_norm.layer_norm_bwd_dx_kernel.default")
	var got []string
	for _, f := range mod.Funcs {
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				if c, ok := inst.(*ir.InstCall); ok {
					if a, ok := c.Callee.(*ir.InlineAsm); ok {
						if i := strings.Index(a.Asm, "atom."); i >= 0 {
							got = append(got, strings.Fields(a.Asm[i:])[0])
						}
						if strings.Contains(a.Asm, "fence") || strings.Contains(a.Asm, "membar") {
							t.Errorf("unexpected fence: %q", a.Asm)
						}
					}
				}
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("atomics %v, want Triton's %v", got, want)
	}
}
