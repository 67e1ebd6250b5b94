// Package npy reads and writes NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// An Array keeps its elements as raw little-endian bytes in C (row-major) order, so that
// `gotriton run` can copy them into device buffers unchanged. Supported dtypes are the
// little-endian (or byte-order-free) ones numpy writes as '<f2', '<f4', '<f8', '|i1',
// '<i2', '<i4', '<i8', '|u1', '<u2', '<u4', '<u8' and '|b1'. Big-endian data, Fortran
// order, structured and object dtypes are rejected with an error.
//
// bfloat16 has no numpy dtype. Store bf16 data as '<u2' (the raw 16 bits of each value,
// as `torch.view(torch.uint16)` or ml_dtypes produce) and give the kernel a `*bf16`
// pointer: the bytes are passed through unchanged.
package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

var magic = []byte("\x93NUMPY")

// Array is an n-dimensional array read from or written to a .npy file.
type Array struct {
	// Descr is the numpy type string, normalized to its little-endian form: "<f4", "|b1".
	Descr string
	// Shape is the array's shape; empty for a 0-d (scalar) array.
	Shape []int
	// Data holds the elements, little-endian, in C order.
	Data []byte
}

// ItemSizes maps each supported dtype to its element size in bytes.
var ItemSizes = map[string]int{
	"<f2": 2, "<f4": 4, "<f8": 8,
	"|i1": 1, "<i2": 2, "<i4": 4, "<i8": 8,
	"|u1": 1, "<u2": 2, "<u4": 4, "<u8": 8,
	"|b1": 1,
}

// normDescr maps the spellings numpy accepts for the supported dtypes to one form.
func normDescr(d string) (string, error) {
	if len(d) < 2 {
		return "", fmt.Errorf("unsupported dtype %q", d)
	}
	order, kind := d[0], d[1:]
	switch kind {
	case "i1", "u1", "b1":
		if order == '<' || order == '|' || order == '=' || order == '>' {
			return "|" + kind, nil
		}
	case "f2", "f4", "f8", "i2", "i4", "i8", "u2", "u4", "u8":
		switch order {
		case '<', '=':
			return "<" + kind, nil
		case '>':
			return "", fmt.Errorf("big-endian dtype %q is not supported (convert with arr.astype(arr.dtype.newbyteorder('<')))", d)
		}
	}
	return "", fmt.Errorf("unsupported dtype %q (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1, little-endian)", d)
}

// Len returns the number of elements.
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// ItemSize returns the element size in bytes.
func (a *Array) ItemSize() int { return ItemSizes[a.Descr] }

// New returns a zero-filled array.
func New(descr string, shape ...int) (*Array, error) {
	d, err := normDescr(descr)
	if err != nil {
		return nil, err
	}
	a := &Array{Descr: d, Shape: append([]int(nil), shape...)}
	a.Data = make([]byte, a.Len()*a.ItemSize())
	return a, nil
}

// ReadFile reads a .npy file.
func ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Read reads one array in .npy format.
func Read(r io.Reader) (*Array, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, fmt.Errorf("not a .npy file: %w", err)
	}
	if !bytes.Equal(pre[:6], magic) {
		return nil, fmt.Errorf("not a .npy file (bad magic)")
	}
	major := pre[6]
	var hlen int
	switch major {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("truncated header: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("truncated header: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d", major, pre[7])
	}
	if hlen > 1<<24 {
		return nil, fmt.Errorf("header of %d bytes is too large", hlen)
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("truncated header: %w", err)
	}
	descr, fortran, shape, err := parseHeader(string(hdr))
	if err != nil {
		return nil, fmt.Errorf("bad header %q: %w", strings.TrimSpace(string(hdr)), err)
	}
	if fortran {
		return nil, fmt.Errorf("Fortran-ordered arrays are not supported (save np.ascontiguousarray(arr))")
	}
	d, err := normDescr(descr)
	if err != nil {
		return nil, err
	}
	a := &Array{Descr: d, Shape: shape}
	n := a.Len() * a.ItemSize()
	a.Data = make([]byte, n)
	if _, err := io.ReadFull(r, a.Data); err != nil {
		return nil, fmt.Errorf("data: want %d bytes for shape %v of %s: %w", n, shape, d, err)
	}
	return a, nil
}

// parseHeader reads the Python dict literal of a .npy header:
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
func parseHeader(h string) (descr string, fortran bool, shape []int, err error) {
	s := strings.TrimSpace(h)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false, nil, fmt.Errorf("not a dict")
	}
	s = s[1 : len(s)-1]
	seen := map[string]bool{}
	for {
		s = strings.TrimLeft(s, " ,\n")
		if s == "" {
			break
		}
		key, rest, ok := pyString(s)
		if !ok {
			return "", false, nil, fmt.Errorf("expected a key at %q", s)
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return "", false, nil, fmt.Errorf("expected ':' after %q", key)
		}
		rest = strings.TrimSpace(rest[1:])
		switch key {
		case "descr":
			descr, rest, ok = pyString(rest)
			if !ok {
				return "", false, nil, fmt.Errorf("descr must be a string (structured dtypes are not supported)")
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "True"):
				fortran, rest = true, rest[4:]
			case strings.HasPrefix(rest, "False"):
				fortran, rest = false, rest[5:]
			default:
				return "", false, nil, fmt.Errorf("fortran_order must be True or False")
			}
		case "shape":
			if !strings.HasPrefix(rest, "(") {
				return "", false, nil, fmt.Errorf("shape must be a tuple")
			}
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return "", false, nil, fmt.Errorf("unterminated shape")
			}
			shape = []int{}
			for _, f := range strings.Split(rest[1:end], ",") {
				f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
				if f == "" {
					continue
				}
				n, err := strconv.Atoi(f)
				if err != nil || n < 0 {
					return "", false, nil, fmt.Errorf("bad dimension %q", f)
				}
				shape = append(shape, n)
			}
			rest = rest[end+1:]
		default:
			return "", false, nil, fmt.Errorf("unknown key %q", key)
		}
		seen[key] = true
		s = rest
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return "", false, nil, fmt.Errorf("missing key %q", k)
		}
	}
	return descr, fortran, shape, nil
}

// pyString reads a quoted Python string (no escapes are needed in .npy headers).
func pyString(s string) (val, rest string, ok bool) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[end+2:], true
}

// header returns the header dict text, padded with spaces and a newline so that the data
// starts at a multiple of 64 bytes, for a preamble of pre bytes.
func (a *Array) header(pre int) []byte {
	var dims []string
	for _, d := range a.Shape {
		dims = append(dims, strconv.Itoa(d))
	}
	shape := strings.Join(dims, ", ")
	if len(a.Shape) == 1 {
		shape += ","
	}
	h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", a.Descr, shape)
	pad := 64 - (pre+len(h)+1)%64
	if pad == 64 {
		pad = 0
	}
	return []byte(h + strings.Repeat(" ", pad) + "\n")
}

// Write writes a in .npy format: version 1.0 when the header fits, else 2.0.
func (a *Array) Write(w io.Writer) error {
	if _, err := normDescr(a.Descr); err != nil {
		return err
	}
	if want := a.Len() * a.ItemSize(); len(a.Data) != want {
		return fmt.Errorf("npy: %d data bytes for shape %v of %s, want %d", len(a.Data), a.Shape, a.Descr, want)
	}
	var buf bytes.Buffer
	buf.Write(magic)
	if h := a.header(10); len(h) <= 0xffff {
		buf.Write([]byte{1, 0})
		buf.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(h))))
		buf.Write(h)
	} else {
		h = a.header(12)
		buf.Write([]byte{2, 0})
		buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(h))))
		buf.Write(h)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	_, err := w.Write(a.Data)
	return err
}

// WriteFile writes a to path.
func (a *Array) WriteFile(path string) error {
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
