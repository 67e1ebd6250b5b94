package npy

import (
	"bytes"
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// numpyFile builds a .npy file the way numpy.save lays it out: magic, version, header
// length, the dict padded with spaces to a 64-byte boundary, a newline, the data.
func numpyFile(major byte, dict string, data []byte) []byte {
	pre := 10
	if major > 1 {
		pre = 12
	}
	total := pre + len(dict) + 1
	pad := (64 - total%64) % 64
	h := dict + strings.Repeat(" ", pad) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY")
	b.Write([]byte{major, 0})
	if major == 1 {
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(h))))
	} else {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(h))))
	}
	b.WriteString(h)
	b.Write(data)
	return b.Bytes()
}

func f32s(xs ...float32) []byte {
	var out []byte
	for _, x := range xs {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

func TestReadNumpyLayouts(t *testing.T) {
	tests := []struct {
		name  string
		file  []byte
		descr string
		shape []int
		data  []byte
	}{
		{"v1 1-d f4", numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", f32s(1, 2.5, -3)), "<f4", []int{3}, f32s(1, 2.5, -3)},
		{"v2 2-d f4", numpyFile(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", f32s(7, 8)), "<f4", []int{1, 2}, f32s(7, 8)},
		{"v3 u1", numpyFile(3, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", []byte{1, 255}), "|u1", []int{2}, []byte{1, 255}},
		{"scalar f8", numpyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", make([]byte, 8)), "<f8", []int{}, make([]byte, 8)},
		{"bool", numpyFile(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", []byte{1, 0, 1}), "|b1", []int{3}, []byte{1, 0, 1}},
		{"empty", numpyFile(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (0, 4), }", nil), "<i8", []int{0, 4}, []byte{}},
		{"native order", numpyFile(1, "{'descr': '=i4', 'fortran_order': False, 'shape': (1,), }", []byte{5, 0, 0, 0}), "<i4", []int{1}, []byte{5, 0, 0, 0}},
		{"key order", numpyFile(1, "{'shape': (1,), 'fortran_order': False, 'descr': '<i2'}", []byte{9, 0}), "<i2", []int{1}, []byte{9, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Read(bytes.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if a.Descr != tt.descr || !equalInts(a.Shape, tt.shape) || !bytes.Equal(a.Data, tt.data) {
				t.Fatalf("got %s %v %v, want %s %v %v", a.Descr, a.Shape, a.Data, tt.descr, tt.shape, tt.data)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"magic", []byte("hello world, not npy"), "bad magic"},
		{"big endian", numpyFile(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", f32s(1)), "big-endian"},
		{"fortran", numpyFile(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", f32s(1)), "Fortran"},
		{"complex", numpyFile(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8)), "unsupported dtype"},
		{"structured", numpyFile(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", f32s(1)), "structured"},
		{"short data", numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", f32s(1)), "want 16 bytes"},
		{"version", append([]byte("\x93NUMPY\x07\x00"), 0, 0), "version 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for descr, size := range ItemSizes {
		for _, shape := range [][]int{{}, {5}, {2, 3}, {2, 1, 4}} {
			a, err := New(descr, shape...)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Data) != a.Len()*size {
				t.Fatalf("%s %v: %d bytes", descr, shape, len(a.Data))
			}
			for i := range a.Data {
				a.Data[i] = byte(i*7 + 1)
			}
			if descr == "|b1" {
				for i := range a.Data {
					a.Data[i] &= 1
				}
			}
			path := filepath.Join(dir, "a.npy")
			if err := a.WriteFile(path); err != nil {
				t.Fatal(err)
			}
			b, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if b.Descr != a.Descr || !equalInts(b.Shape, a.Shape) || !bytes.Equal(b.Data, a.Data) {
				t.Fatalf("%s %v: round trip gave %s %v", descr, shape, b.Descr, b.Shape)
			}
			// The header is padded as numpy pads it: the data starts at a multiple of 64.
			var buf bytes.Buffer
			a.Write(&buf)
			if off := buf.Len() - len(a.Data); off%64 != 0 {
				t.Fatalf("%s %v: data offset %d is not 64-aligned", descr, shape, off)
			}
		}
	}
}

func TestWriteMatchesNumpy(t *testing.T) {
	a := &Array{Descr: "<f4", Shape: []int{3}, Data: f32s(1, 2.5, -3)}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", f32s(1, 2.5, -3))
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("got\n%q\nwant\n%q", buf.Bytes(), want)
	}
}

func TestLargeHeaderUsesV2(t *testing.T) {
	shape := make([]int, 0, 30000)
	for range 30000 {
		shape = append(shape, 1)
	}
	a, _ := New("|u1", shape...)
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Bytes()[6] != 2 {
		t.Fatalf("version %d, want 2", buf.Bytes()[6])
	}
	b, err := Read(&buf)
	if err != nil || len(b.Shape) != 30000 {
		t.Fatalf("read back: %v", err)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
