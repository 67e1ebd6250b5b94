package amd_test

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/gotriton/gotriton/amdgcn"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/driver/cpu"
	"github.com/gotriton/gotriton/driver/simt"
	"github.com/gotriton/gotriton/internal/golden"
	"github.com/gotriton/gotriton/lower"
	"github.com/gotriton/gotriton/lower/isa"
	"github.com/gotriton/gotriton/lower/isa/amd"
	"github.com/gotriton/gotriton/target"
	"github.com/gotriton/gotriton/tileir"
)

// printTTIR prints signed i32 (negative too), f16, a 64-bit scalar, the f16 bits in hex
// and a line without operands, from 64 threads holding one element each.
const printTTIR = `module {
  tt.func public @print_kernel(%n: i64) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %c = arith.constant dense<40> : tensor<64xi32>
    %v = arith.subi %r, %c : tensor<64xi32>
    %h = arith.sitofp %v : tensor<64xi32> to tensor<64xf16>
    tt.print " v: " {hex = false, isSigned = array<i32: 1, 0>} : %v, %h : tensor<64xi32>, tensor<64xf16>
    tt.print " n: " {hex = false, isSigned = array<i32: 1>} : %n : i64
    tt.print " h: " {hex = true, isSigned = array<i32: 0>} : %h : tensor<64xf16>
    tt.print " 100%" {hex = false, isSigned = array<i32>}
    tt.return
  }
}
`

// TestPrintf lowers device_print for AMD to HIP's buffered printf and checks the module
// against its golden file; where LLVM 22 is installed, that the code object declares
// hidden_printf_buffer at byte 72 of the implicit arguments and lists the formats in
// amdhsa.printf (for gfx942 and gfx90a); and that the simulator, decoding the frames
// after the launch, prints what the CPU interpreter prints.
func TestPrintf(t *testing.T) {
	for _, arch := range []string{"gfx942", "gfx90a"} {
		t.Run(arch, func(t *testing.T) {
			m, err := tileir.Parse("print.ttir", printTTIR)
			if err != nil {
				t.Fatal(err)
			}
			tg, err := target.Parse("hip:" + arch + ":64")
			if err != nil {
				t.Fatal(err)
			}
			mod, md, err := lower.Lower(m, tg, lower.Options{Options: isa.Options{NumWarps: 1}})
			if err != nil {
				t.Fatal(err)
			}
			ll := mod.String()
			if arch == "gfx942" {
				golden.Check(t, "testdata/print_kernel.gfx942.ll", ll)
			}
			formats := []string{
				"pid (%u, %u, %u) idx (%2u) v: (operand 0) %i\n",
				"pid (%u, %u, %u) idx (%2u) v: (operand 1) %f\n",
				"pid (%u, %u, %u) idx () n: %lli\n",
				"pid (%u, %u, %u) idx (%2u) h: 0x%04x\n",
				"pid (%u, %u, %u) 100%%\n",
			}
			var entries []string
			for _, f := range formats {
				entries = append(entries, fmt.Sprintf("0:0:%x,%s", amd.PrintfHash(f), f))
			}
			checkCodeObject(t, ll, tg, entries)

			const n = int64(-1) << 40
			var simOut, cpuOut bytes.Buffer
			d := simt.New(simt.AMD, simt.Options{Workers: 2, Stdout: &simOut})
			k, err := d.Load(mod, md.Name, simt.LoadOptions{NumWarps: md.NumWarps})
			if err != nil {
				t.Fatal(err)
			}
			if err := k.Launch(driver.Grid{2, 1, 1}, n); err != nil {
				t.Fatal(err)
			}
			c := cpu.New(cpu.Options{Workers: 1, Stdout: &cpuOut})
			ck, err := c.Load(m, "print_kernel", cpu.LoadOptions{NumWarps: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := ck.Launch(driver.Grid{2, 1, 1}, n); err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(simOut.String(), "\n"); got != 2*64*5 {
				t.Errorf("amd-sim printed %d lines, want one per print and thread: %d", got, 2*64*5)
			}
			got, want := lines(simOut.String()), lines(cpuOut.String())
			if !slices.Equal(got, want) {
				t.Fatalf("amd-sim printed\n%s\nthe CPU interpreter printed\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, l := range []string{"pid (1, 0, 0) idx ( 0) v: (operand 0) -40", "pid (0, 0, 0) idx (63) v: (operand 1) 23.000000",
				"pid (0, 0, 0) idx () n: -1099511627776", "pid (1, 0, 0) idx ( 0) h: 0xd100", "pid (0, 0, 0) 100%"} {
				if !slices.Contains(got, l) {
					t.Errorf("no line %q among\n%s", l, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// TestPrintfBufferFull: frames that no longer fit in the runtime's 4 MiB buffer are
// dropped, as __printf_alloc's null makes printf skip them, and the launch succeeds; the
// frames kept fill the buffer to less than the smallest frame (the 36 bytes of the line
// without operands).
func TestPrintfBufferFull(t *testing.T) {
	m, err := tileir.Parse("print.ttir", printTTIR)
	if err != nil {
		t.Fatal(err)
	}
	tg, err := target.Parse("hip:gfx942:64")
	if err != nil {
		t.Fatal(err)
	}
	mod, md, err := lower.Lower(m, tg, lower.Options{Options: isa.Options{NumWarps: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	d := simt.New(simt.AMD, simt.Options{Stdout: &out})
	k, err := d.Load(mod, md.Name, simt.LoadOptions{NumWarps: md.NumWarps})
	if err != nil {
		t.Fatal(err)
	}
	const programs = 400 // 400 * 64 threads * 5 frames of 36 to 52 bytes: about 5.7 MB
	if err := k.Launch(driver.Grid{programs, 1, 1}, int64(7)); err != nil {
		t.Fatal(err)
	}
	used, printed := 0, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for _, l := range printed { // 12 bytes, and 8 per argument: the pid, the index, the value
		switch {
		case strings.HasSuffix(l, ") 100%"):
			used += 12 + 8*3
		case strings.Contains(l, " idx () "):
			used += 12 + 8*4
		default:
			used += 12 + 8*5
		}
	}
	const room = 4096*1024 - 16 // the header, and __printf_alloc counting it once more
	if used > room || room-used >= 36 || len(printed) >= programs*64*5 {
		t.Errorf("%d lines of %d frame bytes printed, want frames filling %d bytes to less than 36", len(printed), used, room)
	}
}

// lines are the sorted distinct lines of s: programs print in any order, and every
// thread prints a scalar (the CPU interpreter once per program).
func lines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return slices.Compact(l)
}

// checkCodeObject compiles ll with LLVM 22 (where installed) and requires the printf
// buffer among the hidden arguments and the formats in amdhsa.printf.
func checkCodeObject(t *testing.T, ll string, tg target.Target, formats []string) {
	t.Helper()
	for _, tool := range []string{"opt-22", "llc-22", "ld.lld-22"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not installed: the module was not compiled", tool)
			return
		}
	}
	r, err := amdgcn.Compile(ll, tg, amdgcn.Options{Name: "print_kernel.ll"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.CodeObject.Printf, formats) {
		t.Errorf("amdhsa.printf is\n%q\nwant\n%q", r.CodeObject.Printf, formats)
	}
	explicit := r.Kernel.ExplicitArgs()
	last := explicit[len(explicit)-1]
	want := (last.Offset+last.Size+7)&^7 + amd.PrintfBufferArg
	for _, a := range r.Kernel.Args {
		if a.ValueKind == "hidden_printf_buffer" {
			if a.Offset != want || a.Size != 8 {
				t.Errorf("hidden_printf_buffer at byte %d (%d bytes), want %d (8 bytes)", a.Offset, a.Size, want)
			}
			return
		}
	}
	t.Errorf("no hidden_printf_buffer among the arguments %+v", r.Kernel.Args)
}
