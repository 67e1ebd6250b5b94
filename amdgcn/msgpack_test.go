package amdgcn

import (
	"reflect"
	"testing"
)

func TestDecodeMsgpack(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want any
	}{
		{[]byte{0x05}, int64(5)},
		{[]byte{0xff}, int64(-1)},
		{[]byte{0xc0}, nil},
		{[]byte{0xc2}, false},
		{[]byte{0xc3}, true},
		{[]byte{0xcc, 0xc8}, uint64(200)},
		{[]byte{0xcd, 0x01, 0x00}, uint64(256)},
		{[]byte{0xce, 0x00, 0x01, 0x00, 0x00}, uint64(65536)},
		{[]byte{0xcf, 0, 0, 0, 1, 0, 0, 0, 0}, uint64(1 << 32)},
		{[]byte{0xd0, 0x80}, int64(-128)},
		{[]byte{0xd1, 0xff, 0x00}, int64(-256)},
		{[]byte{0xd2, 0xff, 0xff, 0xff, 0xfe}, int64(-2)},
		{[]byte{0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd}, int64(-3)},
		{[]byte{0xca, 0x3f, 0xc0, 0x00, 0x00}, 1.5},
		{[]byte{0xcb, 0x40, 0x04, 0, 0, 0, 0, 0, 0}, 2.5},
		{[]byte{0xa3, 'a', 'b', 'c'}, "abc"},
		{[]byte{0xd9, 0x02, 'h', 'i'}, "hi"},
		{[]byte{0xda, 0x00, 0x01, 'x'}, "x"},
		{[]byte{0xc4, 0x02, 1, 2}, []byte{1, 2}},
		{[]byte{0x92, 0x01, 0xa1, 'z'}, []any{int64(1), "z"}},
		{[]byte{0xdc, 0x00, 0x01, 0xc3}, []any{true}},
		{[]byte{0x81, 0xa2, '.', 'n', 0x07}, map[string]any{".n": int64(7)}},
		{[]byte{0xde, 0x00, 0x01, 0xa1, 'k', 0x90}, map[string]any{"k": []any{}}},
	} {
		got, err := decodeMsgpack(c.in)
		if err != nil {
			t.Errorf("% x: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("% x: got %#v, want %#v", c.in, got, c.want)
		}
	}
}

func TestDecodeMsgpackErrors(t *testing.T) {
	deep := make([]byte, 100)
	for i := range deep {
		deep[i] = 0x91 // an array of one array of ...
	}
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{nil, "msgpack: truncated at byte 0 (want 1 more bytes)"},
		{[]byte{0xa3, 'a'}, "msgpack: truncated at byte 1 (want 3 more bytes)"},
		{[]byte{0x01, 0x02}, "msgpack: 1 bytes after the value"},
		{[]byte{0xc1}, "msgpack: unsupported type byte 0xc1 at byte 0"},
		{[]byte{0xd4, 0x01, 0x02}, "msgpack: unsupported type byte 0xd4 at byte 0"},
		{[]byte{0x81, 0x01, 0x02}, "msgpack: map key at byte 1 is int64, not a string"},
		{[]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, "msgpack: array of 4294967295 elements at byte 5 is longer than the data"},
		{[]byte{0xdf, 0x00, 0x00, 0x00, 0x09, 0xc0}, "msgpack: map of 9 entries at byte 5 is longer than the data"},
		{deep, "msgpack: nested deeper than 64 at byte 65"},
	} {
		_, err := decodeMsgpack(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("% x: error %v, want %q", c.in, err, c.want)
		}
	}
}

// FuzzReadCodeObject feeds ReadCodeObject arbitrary bytes: it must return an error or a
// result, never panic.
func FuzzReadCodeObject(f *testing.F) {
	f.Add([]byte("\x7fELF"))
	f.Add([]byte{0x82, 0xa1, 'a', 0x90, 0xa1, 'b', 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		ReadCodeObject(data)
		if v, err := decodeMsgpack(data); err == nil {
			codeObjectFrom(v)
		}
	})
}
