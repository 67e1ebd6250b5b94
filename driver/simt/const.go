package simt

import (
	"fmt"
	"math"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
)

// constElems evaluates a constant to its flattened elements.
func (b *builder) constElems(c constant.Constant) ([]uint64, error) {
	switch c := c.(type) {
	case *constant.Int:
		bits := int(c.Typ.BitSize)
		if c.X.IsInt64() {
			return []uint64{uint64(c.X.Int64()) & mask(bits)}, nil
		}
		if c.X.IsUint64() {
			return []uint64{c.X.Uint64() & mask(bits)}, nil
		}
		return nil, fmt.Errorf("integer constant %s is wider than 64 bits", c.X)
	case *constant.Float:
		k, err := scalarKind(c.Typ)
		if err != nil {
			return nil, err
		}
		x, _ := c.X.Float64()
		if c.NaN {
			x = math.NaN()
		}
		return []uint64{fromFloat(k, x)}, nil
	case *constant.Null, *constant.ZeroInitializer, *constant.Undef, *constant.Poison:
		ks, err := flatten(c.Type())
		return make([]uint64, len(ks)), err
	case *constant.Vector:
		return b.constList(c.Elems)
	case *constant.Struct:
		return b.constList(c.Fields)
	case *constant.Array:
		return b.constList(c.Elems)
	case *constant.ExprBitCast:
		return b.constCast(c.From, c.To)
	case *constant.ExprAddrSpaceCast:
		return b.constCast(c.From, c.To)
	case *constant.ExprIntToPtr:
		return b.constCast(c.From, c.To)
	case *constant.ExprPtrToInt:
		return b.constCast(c.From, c.To)
	case *constant.ExprGetElementPtr:
		base, err := b.constElems(c.Src)
		if err != nil {
			return nil, err
		}
		idx := make([]int64, len(c.Indices))
		for i, x := range c.Indices {
			if ix, ok := x.(*constant.Index); ok {
				x = ix.Constant
			}
			e, err := b.constElems(x)
			if err != nil {
				return nil, err
			}
			it, ok := x.Type().(*types.IntType)
			if !ok || len(e) != 1 {
				return nil, fmt.Errorf("constant GEP index %s is not an integer", x.Ident())
			}
			idx[i] = sext(e[0], int(it.BitSize))
		}
		off, err := b.k.isa.gepOffset(c.ElemType, idx)
		if err != nil {
			return nil, err
		}
		return []uint64{(base[0] + uint64(off)) & mask(b.k.isa.ptrBits(c.Typ))}, nil
	case *ir.Global:
		if int(c.Typ.AddrSpace) == b.k.isa.Shared {
			return []uint64{0}, nil // the dynamic shared memory starts at shared address 0
		}
		addr, err := b.global(c)
		return []uint64{addr}, err
	}
	return nil, fmt.Errorf("constant %s (%T) is not supported", c.Ident(), c)
}

func (b *builder) constList(cs []constant.Constant) ([]uint64, error) {
	var out []uint64
	for _, e := range cs {
		v, err := b.constElems(e)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return out, nil
}

// constCast evaluates a bit-preserving cast of a constant.
func (b *builder) constCast(from constant.Constant, to types.Type) ([]uint64, error) {
	v, err := b.constElems(from)
	if err != nil {
		return nil, err
	}
	fk, err := flatten(from.Type())
	if err != nil {
		return nil, err
	}
	tk, err := flatten(to)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, len(tk))
	if len(fk) == len(tk) && (fk[0] == kPtr || tk[0] == kPtr) {
		for i := range out {
			out[i] = v[i] & mask(b.k.isa.ptrBits(elemPtrType(to)))
		}
		return out, nil
	}
	repack(fk, v, 1, 0, tk, out)
	return out, nil
}

// gepOffset is the byte offset of getelementptr's constant or per-lane indices idx on
// elem.
func (isa *ISA) gepOffset(elem types.Type, idx []int64) (int64, error) {
	size, err := isa.sizeOf(elem)
	if err != nil {
		return 0, err
	}
	off := idx[0] * int64(size)
	t := elem
	for _, i := range idx[1:] {
		switch tt := t.(type) {
		case *types.ArrayType:
			t = tt.ElemType
		case *types.VectorType:
			t = tt.ElemType
		case *types.StructType:
			pos := 0
			for f := range int(i) {
				s, err := isa.sizeOf(tt.Fields[f])
				if err != nil {
					return 0, err
				}
				a := isa.alignOf(tt.Fields[f])
				pos = (pos+a-1)/a*a + s
			}
			a := isa.alignOf(tt.Fields[i])
			off += int64((pos + a - 1) / a * a)
			t = tt.Fields[i]
			continue
		default:
			return 0, fmt.Errorf("getelementptr into %s", t)
		}
		s, err := isa.sizeOf(t)
		if err != nil {
			return 0, err
		}
		off += i * int64(s)
	}
	return off, nil
}

// repack reinterprets the bits of one lane's elements: src has kinds fk, element i of it
// at src[i*stride+lane]; the result goes to dst likewise with kinds tk (a bitcast).
func repack(fk []kind, src []uint64, stride, lane int, tk []kind, dst []uint64) {
	var acc [4]uint64 // up to 256 bits
	pos := 0
	for i, k := range fk {
		w := k.bits()
		v := src[i*stride+lane] & mask(w)
		acc[pos/64] |= v << (pos % 64)
		if pos%64+w > 64 {
			acc[pos/64+1] |= v >> (64 - pos%64)
		}
		pos += w
	}
	pos = 0
	for i, k := range tk {
		w := k.bits()
		v := acc[pos/64] >> (pos % 64)
		if pos%64+w > 64 {
			v |= acc[pos/64+1] << (64 - pos%64)
		}
		dst[i*stride+lane] = v & mask(w)
		pos += w
	}
}

// global places an initialized global variable (a printf format) in device memory once
// per kernel and returns its address.
func (b *builder) global(g *ir.Global) (uint64, error) {
	if buf, ok := b.globals[g]; ok {
		return buf.Addr(), nil
	}
	if g.Init == nil || !b.k.isa.Global[int(g.Typ.AddrSpace)] {
		return 0, fmt.Errorf("global @%s in address space %d without an initializer is not supported", g.Name(), g.Typ.AddrSpace)
	}
	var data []byte
	if ca, ok := g.Init.(*constant.CharArray); ok {
		data = ca.X
	} else {
		elems, err := b.constElems(g.Init)
		if err != nil {
			return 0, err
		}
		sizes, err := b.k.isa.elemSizes(g.ContentType)
		if err != nil {
			return 0, err
		}
		for i, e := range elems {
			data = append(data, make([]byte, sizes[i])...)
			writeLE(data[len(data)-sizes[i]:], e)
		}
	}
	buf, err := b.k.d.alloc(len(data))
	if err != nil {
		return 0, err
	}
	copy(buf.data, data)
	b.globals[g] = buf
	b.k.globals = append(b.k.globals, buf)
	return buf.Addr(), nil
}
