package tileir

import (
	"os"
	"path/filepath"
	"testing"

	goldenfile "github.com/gotriton/gotriton/internal/golden"
)

// golden compares got with testdata/name, or rewrites the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got)
}

// roundTrip checks that parsing the printed module prints it back unchanged.
func roundTrip(t *testing.T, name, text string) *Module {
	t.Helper()
	m, err := Parse(name, text)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	if got := m.String(); got != text {
		t.Fatalf("%s does not round-trip:\n--- printed again\n%s\n--- original\n%s", name, got, text)
	}
	return m
}

func TestBuiltKernels(t *testing.T) {
	for _, k := range builtKernels {
		t.Run(k.name, func(t *testing.T) {
			m := k.build()
			if err := Verify(m); err != nil {
				t.Fatalf("verify: %v", err)
			}
			text := m.String()
			golden(t, k.name+".mlir", text)
			roundTrip(t, k.name, text)
			dbg := m.Print(PrintOptions{Debuginfo: true})
			md, err := Parse(k.name, dbg)
			if err != nil {
				t.Fatalf("parse with locations: %v", err)
			}
			if got := md.Print(PrintOptions{Debuginfo: true}); got != dbg {
				t.Fatalf("locations do not round-trip:\n%s", got)
			}
		})
	}
}

func TestOpString(t *testing.T) {
	m := controlFlow()
	var got []string
	m.Func("control_kernel").Walk(func(op *Op) bool {
		if op.Name == "scf.while" && len(op.Results) == 2 {
			got = append(got, op.String())
		}
		return true
	})
	want := `%0:2 = scf.while (%arg0 = %?, %arg1 = %?) : (i32, i32) -> (i32, i32) {
  %1 = arith.cmpi sgt, %arg0, %? : i32
  scf.condition(%1) %arg0, %arg1 : i32, i32
} do {
^bb0(%arg0: i32, %arg1: i32):
  %1 = arith.subi %arg0, %? : i32
  %2 = arith.addi %arg1, %arg0 : i32
  scf.yield %1, %2 : i32, i32
}`
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got\n%s", got)
	}
}

func TestParseVariants(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "variants.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse("variants.mlir", string(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(m); err != nil {
		t.Fatal(err)
	}
	golden(t, "variants.golden", m.String())
	roundTrip(t, "variants", m.String())
}
