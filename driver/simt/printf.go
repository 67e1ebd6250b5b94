package simt

import (
	"fmt"
	"math"
	"strings"

	"github.com/gotriton/gotriton/driver"
)

// vprintf(format, args) prints as CUDA's device printf: format is a NUL-terminated C
// format string, args a buffer holding each argument aligned to its size (ints of 4 bytes,
// or 8 with l/ll; doubles and pointers of 8).
func vprintf(s *site) (op, error) {
	if len(s.args) != 2 {
		return nil, fmt.Errorf("vprintf with %d operands", len(s.args))
	}
	fo, ao, dst := s.args[0], s.args[1], s.dst
	d := s.b.k.d
	return func(f *frame) error {
		for l := range f.lanes {
			if !f.on(l) {
				continue
			}
			format, err := d.cString(f.regs[fo.off+l])
			if err != nil {
				return laneErr(f, l, fmt.Errorf("vprintf format: %v", err))
			}
			text, n, err := d.formatC(format, f.regs[ao.off+l])
			if err != nil {
				return laneErr(f, l, fmt.Errorf("vprintf: %v", err))
			}
			d.outMu.Lock()
			_, err = d.out.Write([]byte(text))
			d.outMu.Unlock()
			if err != nil {
				return err
			}
			if dst.kinds != nil {
				f.regs[dst.off+l] = uint64(n)
			}
		}
		return nil
	}, nil
}

// cString reads the NUL-terminated string at addr.
func (d *Device) cString(addr uint64) (string, error) {
	var b strings.Builder
	for i := uint64(0); ; i++ {
		c, err := d.resolve(addr+i, 1)
		if err != nil {
			return "", err
		}
		if c[0] == 0 {
			return b.String(), nil
		}
		b.WriteByte(c[0])
	}
}

// formatC expands a C format string with the arguments at addr, each aligned to its
// size; it returns the text and the number of arguments read.
func (d *Device) formatC(format string, addr uint64) (string, int, error) {
	pos := uint64(0)
	return d.formatArgs(format, func(size uint64) (uint64, error) {
		pos = (pos + size - 1) / size * size
		b, err := d.resolve(addr+pos, int(size))
		if err != nil {
			return 0, err
		}
		pos += size
		return readLE(b), nil
	})
}

// formatArgs expands a C format string, next giving each argument's bits from its size
// in bytes (4 for an int conversion without l, 8 for the others); it returns the text and
// the number of arguments read.
func (d *Device) formatArgs(format string, next func(size uint64) (uint64, error)) (string, int, error) {
	var out strings.Builder
	n := 0
	arg := func(size uint64) (uint64, error) {
		v, err := next(size)
		if err == nil {
			n++
		}
		return v, err
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		spec := format[i+1 : j] // flags, width, precision
		long := 0
		for j < len(format) && strings.IndexByte("hlzjt", format[j]) >= 0 {
			if format[j] == 'l' || format[j] == 'z' || format[j] == 'j' || format[j] == 't' {
				long++
			}
			j++
		}
		if j == len(format) {
			return "", n, fmt.Errorf("format %q ends inside a conversion", format)
		}
		conv := format[j]
		i = j
		size := uint64(4)
		if long > 0 {
			size = 8
		}
		switch conv {
		case '%':
			out.WriteByte('%')
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
			v, err := arg(size)
			if err != nil {
				return "", n, err
			}
			verb := map[byte]string{'d': "d", 'i': "d", 'u': "d", 'x': "x", 'X': "X", 'o': "o", 'c': "c"}[conv]
			if conv == 'd' || conv == 'i' {
				fmt.Fprintf(&out, "%"+spec+verb, sext(v, int(size*8)))
			} else {
				fmt.Fprintf(&out, "%"+spec+verb, v&mask(int(size*8)))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G':
			v, err := arg(8)
			if err != nil {
				return "", n, err
			}
			out.WriteString(driver.CFloat(math.Float64frombits(v), spec, conv))
		case 'p':
			v, err := arg(8)
			if err != nil {
				return "", n, err
			}
			fmt.Fprintf(&out, "0x%x", v)
		case 's':
			v, err := arg(8)
			if err != nil {
				return "", n, err
			}
			str, err := d.cString(v)
			if err != nil {
				return "", n, err
			}
			out.WriteString(str)
		default:
			return "", n, fmt.Errorf("format %q: conversion %%%c is not supported", format, conv)
		}
	}
	return out.String(), n, nil
}

// assertFail is the CUDA runtime's __assertfail(message, file, line, function, charSize):
// the first lane that calls it stops the program with the assert's message and place
// (on the GPU the kernel stops and cuCtxSynchronize returns CUDA_ERROR_ASSERT).
func assertFail(s *site) (op, error) {
	if len(s.args) != 5 {
		return nil, fmt.Errorf("__assertfail with %d operands", len(s.args))
	}
	mo, fo, lo := s.args[0], s.args[1], s.args[2]
	d := s.b.k.d
	return func(f *frame) error {
		for l := range f.lanes {
			if !f.on(l) {
				continue
			}
			msg, err := d.cString(f.regs[mo.off+l])
			if err != nil {
				return laneErr(f, l, fmt.Errorf("__assertfail message: %v", err))
			}
			file, err := d.cString(f.regs[fo.off+l])
			if err != nil {
				return laneErr(f, l, fmt.Errorf("__assertfail file: %v", err))
			}
			return laneErr(f, l, fmt.Errorf("device assert failed at %s:%d: %s", file, int32(f.regs[lo.off+l]), msg))
		}
		return nil
	}, nil
}

// trap is llvm.trap: the first lane that reaches it stops the program (AMD's device
// assert traps after printing its message).
func trap(s *site) (op, error) {
	return func(f *frame) error {
		for l := range f.lanes {
			if f.on(l) {
				return laneErr(f, l, fmt.Errorf("trap"))
			}
		}
		return nil
	}, nil
}
