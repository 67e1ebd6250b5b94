package amdgcn

import (
	"encoding/binary"
	"fmt"
	"math"
)

// decodeMsgpack decodes one MessagePack value, the encoding of the AMDGPU metadata note,
// into nil, bool, int64, uint64, float64, string, []byte, []any or map[string]any. It
// rejects trailing bytes, extension types and maps with keys that are not strings, none of
// which the AMDGPU metadata uses.
func decodeMsgpack(data []byte) (any, error) {
	d := msgpackDecoder{data: data}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.pos != len(data) {
		return nil, fmt.Errorf("msgpack: %d bytes after the value", len(data)-d.pos)
	}
	return v, nil
}

type msgpackDecoder struct {
	data []byte
	pos  int
}

// maxDepth bounds the nesting of arrays and maps, so that hostile input cannot exhaust the stack.
const maxDepth = 64

// take returns the next n bytes.
func (d *msgpackDecoder) take(n int) ([]byte, error) {
	if n < 0 || n > len(d.data)-d.pos {
		return nil, fmt.Errorf("msgpack: truncated at byte %d (want %d more bytes)", d.pos, n)
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b, nil
}

// uint reads a big-endian unsigned integer of size bytes.
func (d *msgpackDecoder) uint(size int) (uint64, error) {
	b, err := d.take(size)
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, nil
}

func (d *msgpackDecoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("msgpack: nested deeper than %d at byte %d", maxDepth, d.pos)
	}
	start := d.pos
	tb, err := d.take(1)
	if err != nil {
		return nil, err
	}
	t := tb[0]
	switch {
	case t <= 0x7f:
		return int64(t), nil
	case t >= 0xe0:
		return int64(int8(t)), nil
	case t&0xf0 == 0x80:
		return d.mapOf(int(t&0x0f), depth)
	case t&0xf0 == 0x90:
		return d.arrayOf(int(t&0x0f), depth)
	case t&0xe0 == 0xa0:
		return d.str(int(t & 0x1f))
	}
	switch t {
	case 0xc0:
		return nil, nil
	case 0xc2:
		return false, nil
	case 0xc3:
		return true, nil
	case 0xc4, 0xc5, 0xc6: // bin 8/16/32
		n, err := d.uint(1 << (t - 0xc4))
		if err != nil {
			return nil, err
		}
		b, err := d.take(int(n))
		return append([]byte(nil), b...), err
	case 0xca:
		v, err := d.uint(4)
		return float64(math.Float32frombits(uint32(v))), err
	case 0xcb:
		v, err := d.uint(8)
		return math.Float64frombits(v), err
	case 0xcc, 0xcd, 0xce, 0xcf: // uint 8/16/32/64
		return d.uint(1 << (t - 0xcc))
	case 0xd0, 0xd1, 0xd2, 0xd3: // int 8/16/32/64
		size := 1 << (t - 0xd0)
		v, err := d.uint(size)
		shift := 64 - 8*size
		return int64(v<<shift) >> shift, err
	case 0xd9, 0xda, 0xdb: // str 8/16/32
		n, err := d.uint(1 << (t - 0xd9))
		if err != nil {
			return nil, err
		}
		return d.str(int(n))
	case 0xdc, 0xdd: // array 16/32
		n, err := d.uint(2 << (t - 0xdc))
		if err != nil {
			return nil, err
		}
		return d.arrayOf(int(n), depth)
	case 0xde, 0xdf: // map 16/32
		n, err := d.uint(2 << (t - 0xde))
		if err != nil {
			return nil, err
		}
		return d.mapOf(int(n), depth)
	}
	return nil, fmt.Errorf("msgpack: unsupported type byte 0x%02x at byte %d", t, start)
}

func (d *msgpackDecoder) str(n int) (string, error) {
	b, err := d.take(n)
	return string(b), err
}

func (d *msgpackDecoder) arrayOf(n int, depth int) ([]any, error) {
	if n > len(d.data)-d.pos { // every element takes at least one byte
		return nil, fmt.Errorf("msgpack: array of %d elements at byte %d is longer than the data", n, d.pos)
	}
	out := make([]any, n)
	for i := range out {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (d *msgpackDecoder) mapOf(n int, depth int) (map[string]any, error) {
	if n > (len(d.data)-d.pos)/2 {
		return nil, fmt.Errorf("msgpack: map of %d entries at byte %d is longer than the data", n, d.pos)
	}
	out := make(map[string]any, n)
	for range n {
		at := d.pos
		k, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		key, ok := k.(string)
		if !ok {
			return nil, fmt.Errorf("msgpack: map key at byte %d is %T, not a string", at, k)
		}
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	return out, nil
}

// le32 reads a little-endian uint32 (ELF note headers and kernel descriptors are little-endian).
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
