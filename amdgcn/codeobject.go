package amdgcn

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// CodeObject is what a linked HSACO says about itself in its AMDGPU metadata note.
type CodeObject struct {
	// Version is amdhsa.version: [1, 2] for code object v5.
	Version [2]int `json:"version"`
	// Target is amdhsa.target, e.g. "amdgcn-amd-amdhsa--gfx942".
	Target  string   `json:"target"`
	Kernels []Kernel `json:"kernels"`
	// Printf is amdhsa.printf, the module's printf formats ("0:0:<MD5 low 64 bits in
	// hex>,<format>" for HIP's buffered printf), which the runtime formats frames with.
	Printf []string `json:"printf,omitempty"`
}

// Kernel is one kernel's entry of amdhsa.kernels, checked against its kernel descriptor.
// The JSON names are the metadata's own keys, without the leading dot.
type Kernel struct {
	Name string `json:"name"`
	// Symbol is the kernel descriptor's symbol, the kernel's name plus ".kd".
	Symbol     string `json:"symbol"`
	VGPRs      int    `json:"vgpr_count"`
	SGPRs      int    `json:"sgpr_count"`
	AGPRs      int    `json:"agpr_count"`
	VGPRSpills int    `json:"vgpr_spill_count"`
	SGPRSpills int    `json:"sgpr_spill_count"`
	// LDSBytes is the static LDS (shared memory) per workgroup: .group_segment_fixed_size.
	LDSBytes int `json:"group_segment_fixed_size"`
	// ScratchBytes is the private (scratch) memory per work-item: .private_segment_fixed_size.
	ScratchBytes  int  `json:"private_segment_fixed_size"`
	DynamicStack  bool `json:"uses_dynamic_stack"`
	WavefrontSize int  `json:"wavefront_size"`
	// KernargBytes and KernargAlign describe the kernel argument segment, hidden
	// arguments included.
	KernargBytes         int   `json:"kernarg_segment_size"`
	KernargAlign         int   `json:"kernarg_segment_align"`
	MaxFlatWorkgroupSize int   `json:"max_flat_workgroup_size"`
	Args                 []Arg `json:"args"`
}

// Arg is one kernel argument's place in the kernarg segment.
type Arg struct {
	Name   string `json:"name,omitempty"`
	Offset int    `json:"offset"`
	Size   int    `json:"size"`
	// ValueKind is "global_buffer", "by_value", or "hidden_..." for what the runtime fills in.
	ValueKind    string `json:"value_kind"`
	AddressSpace string `json:"address_space,omitempty"`
}

// Hidden reports whether the runtime, not the caller, fills in the argument.
func (a Arg) Hidden() bool { return strings.HasPrefix(a.ValueKind, "hidden_") }

// ExplicitArgs returns the arguments a launch passes: all but the hidden ones.
func (k *Kernel) ExplicitArgs() []Arg {
	return slices.DeleteFunc(slices.Clone(k.Args), Arg.Hidden)
}

// Kernel returns the kernel called name, or nil.
func (c *CodeObject) Kernel(name string) *Kernel {
	for i := range c.Kernels {
		if c.Kernels[i].Name == name {
			return &c.Kernels[i]
		}
	}
	return nil
}

const (
	ntAMDGPUMetadata = 32 // NT_AMDGPU_METADATA: a msgpack map, owner "AMDGPU"
	descriptorSize   = 64 // bytes of an amd_kernel_code_t successor, the kernel descriptor
)

// ReadCodeObject reads the AMDGPU metadata of a linked code object (an HSACO: an AMDGPU
// ELF shared object) and checks each kernel against its kernel descriptor: the `.kd`
// symbol must exist and be 64 bytes, its LDS, scratch and kernarg sizes must agree with
// the note, and its entry offset must point at the kernel's code.
func ReadCodeObject(hsaco []byte) (*CodeObject, error) {
	f, err := elf.NewFile(bytes.NewReader(hsaco))
	if err != nil {
		return nil, fmt.Errorf("amdgcn: not an ELF file: %v", err)
	}
	if f.Machine != elf.EM_AMDGPU {
		return nil, fmt.Errorf("amdgcn: ELF machine %v, want EM_AMDGPU", f.Machine)
	}
	if f.Type != elf.ET_DYN {
		return nil, fmt.Errorf("amdgcn: ELF type %v, want ET_DYN (a code object linked with ld.lld -shared)", f.Type)
	}
	note, err := metadataNote(f)
	if err != nil {
		return nil, err
	}
	v, err := decodeMsgpack(note)
	if err != nil {
		return nil, fmt.Errorf("amdgcn: AMDGPU metadata note: %v", err)
	}
	c, err := codeObjectFrom(v)
	if err != nil {
		return nil, fmt.Errorf("amdgcn: AMDGPU metadata note: %v", err)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("amdgcn: dynamic symbols: %v", err)
	}
	for i := range c.Kernels {
		if err := checkDescriptor(f, syms, &c.Kernels[i]); err != nil {
			return nil, fmt.Errorf("amdgcn: kernel %s: %v", c.Kernels[i].Name, err)
		}
	}
	return c, nil
}

// metadataNote returns the description of the NT_AMDGPU_METADATA note owned by "AMDGPU".
func metadataNote(f *elf.File) ([]byte, error) {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("amdgcn: section %s: %v", s.Name, err)
		}
		for len(data) >= 12 {
			namesz, descsz, typ := int(le32(data)), int(le32(data[4:])), le32(data[8:])
			nameEnd := 12 + align4(namesz)
			descEnd := nameEnd + align4(descsz)
			if namesz < 0 || descsz < 0 || nameEnd > len(data) || descEnd > len(data) {
				return nil, fmt.Errorf("amdgcn: section %s: a truncated note", s.Name)
			}
			name := strings.TrimRight(string(data[12:12+namesz]), "\x00")
			if name == "AMDGPU" && typ == ntAMDGPUMetadata {
				return data[nameEnd : nameEnd+descsz], nil
			}
			data = data[descEnd:]
		}
	}
	return nil, errors.New("amdgcn: the code object has no NT_AMDGPU_METADATA note")
}

func align4(n int) int { return (n + 3) &^ 3 }

// checkDescriptor finds k's descriptor symbol and function and compares the descriptor
// with the metadata.
func checkDescriptor(f *elf.File, syms []elf.Symbol, k *Kernel) error {
	var kd, fn *elf.Symbol
	for i := range syms {
		switch s := &syms[i]; {
		case s.Name == k.Symbol && elf.ST_TYPE(s.Info) == elf.STT_OBJECT:
			kd = s
		case s.Name == k.Name && elf.ST_TYPE(s.Info) == elf.STT_FUNC:
			fn = s
		}
	}
	if kd == nil {
		return fmt.Errorf("no kernel descriptor symbol %s", k.Symbol)
	}
	if fn == nil {
		return fmt.Errorf("no function symbol %s", k.Name)
	}
	if kd.Size != descriptorSize {
		return fmt.Errorf("kernel descriptor %s is %d bytes, want %d", k.Symbol, kd.Size, descriptorSize)
	}
	desc, err := bytesAt(f, kd.Value, descriptorSize)
	if err != nil {
		return fmt.Errorf("kernel descriptor %s: %v", k.Symbol, err)
	}
	for _, c := range []struct {
		what     string
		got      uint32
		metadata int
	}{
		{"group segment (LDS) size", le32(desc[0:]), k.LDSBytes},
		{"private segment (scratch) size", le32(desc[4:]), k.ScratchBytes},
		{"kernarg size", le32(desc[8:]), k.KernargBytes},
	} {
		if int(c.got) != c.metadata {
			return fmt.Errorf("the kernel descriptor's %s is %d, the metadata's %d", c.what, c.got, c.metadata)
		}
	}
	entry := kd.Value + uint64(int64(binary.LittleEndian.Uint64(desc[16:])))
	if entry != fn.Value {
		return fmt.Errorf("the kernel descriptor's entry is 0x%x, but %s is at 0x%x", entry, k.Name, fn.Value)
	}
	return nil
}

// bytesAt returns n bytes at virtual address addr of an allocated section.
func bytesAt(f *elf.File, addr uint64, n int) ([]byte, error) {
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 || s.Type == elf.SHT_NOBITS || addr < s.Addr || addr-s.Addr > s.Size || uint64(n) > s.Size-(addr-s.Addr) {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, err
		}
		off := addr - s.Addr
		return data[off : off+uint64(n)], nil
	}
	return nil, fmt.Errorf("address 0x%x is in no section", addr)
}

// codeObjectFrom reads the decoded metadata map.
func codeObjectFrom(v any) (*CodeObject, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the metadata is %T, not a map", v)
	}
	r := fields{m: m, where: "the metadata"}
	c := &CodeObject{Target: r.str("amdhsa.target")}
	ver := r.list("amdhsa.version")
	if len(ver) != 2 {
		r.fail("amdhsa.version has %d elements, want 2", len(ver))
	} else {
		for i, x := range ver {
			n, ok := integer(x)
			if !ok {
				r.fail("amdhsa.version[%d] is %T, not an integer", i, x)
			}
			c.Version[i] = n
		}
	}
	for i, x := range r.optList("amdhsa.printf") {
		f, ok := x.(string)
		if !ok {
			r.fail("amdhsa.printf[%d] is %T, not a string", i, x)
		}
		c.Printf = append(c.Printf, f)
	}
	for i, kv := range r.list("amdhsa.kernels") {
		km, ok := kv.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("amdhsa.kernels[%d] is %T, not a map", i, kv)
		}
		kr := fields{m: km, where: fmt.Sprintf("amdhsa.kernels[%d]", i)}
		k := Kernel{
			Name:                 kr.str(".name"),
			Symbol:               kr.str(".symbol"),
			VGPRs:                kr.int(".vgpr_count"),
			SGPRs:                kr.int(".sgpr_count"),
			AGPRs:                kr.optInt(".agpr_count"),
			VGPRSpills:           kr.optInt(".vgpr_spill_count"),
			SGPRSpills:           kr.optInt(".sgpr_spill_count"),
			LDSBytes:             kr.int(".group_segment_fixed_size"),
			ScratchBytes:         kr.int(".private_segment_fixed_size"),
			DynamicStack:         kr.optBool(".uses_dynamic_stack"),
			WavefrontSize:        kr.int(".wavefront_size"),
			KernargBytes:         kr.int(".kernarg_segment_size"),
			KernargAlign:         kr.int(".kernarg_segment_align"),
			MaxFlatWorkgroupSize: kr.int(".max_flat_workgroup_size"),
		}
		for j, av := range kr.optList(".args") {
			am, ok := av.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s.args[%d] is %T, not a map", kr.where, j, av)
			}
			ar := fields{m: am, where: fmt.Sprintf("%s.args[%d]", kr.where, j)}
			k.Args = append(k.Args, Arg{
				Name:         ar.optStr(".name"),
				Offset:       ar.int(".offset"),
				Size:         ar.int(".size"),
				ValueKind:    ar.str(".value_kind"),
				AddressSpace: ar.optStr(".address_space"),
			})
			if ar.err != nil {
				return nil, ar.err
			}
		}
		if kr.err != nil {
			return nil, kr.err
		}
		c.Kernels = append(c.Kernels, k)
	}
	if r.err != nil {
		return nil, r.err
	}
	return c, nil
}

// fields reads typed entries of one metadata map, remembering the first problem.
type fields struct {
	m     map[string]any
	where string
	err   error
}

func (r *fields) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: %s", r.where, fmt.Sprintf(format, args...))
	}
}

// get returns the entry key; a missing one is an error unless optional.
func (r *fields) get(key string, optional bool) (any, bool) {
	v, ok := r.m[key]
	if !ok && !optional {
		r.fail("no %s", key)
	}
	return v, ok
}

func (r *fields) int(key string) int { return r.intOf(key, false) }

func (r *fields) optInt(key string) int { return r.intOf(key, true) }

func (r *fields) intOf(key string, optional bool) int {
	v, ok := r.get(key, optional)
	if !ok {
		return 0
	}
	n, ok := integer(v)
	if !ok {
		r.fail("%s is %T, not an integer", key, v)
	}
	return n
}

// integer converts a decoded msgpack integer that fits an int.
func integer(v any) (int, bool) {
	switch n := v.(type) {
	case int64:
		return int(n), int64(int(n)) == n
	case uint64:
		return int(n), n <= uint64(^uint(0)>>1)
	}
	return 0, false
}

func (r *fields) str(key string) string { return r.strOf(key, false) }

func (r *fields) optStr(key string) string { return r.strOf(key, true) }

func (r *fields) strOf(key string, optional bool) string {
	v, ok := r.get(key, optional)
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.fail("%s is %T, not a string", key, v)
	}
	return s
}

func (r *fields) optBool(key string) bool {
	v, ok := r.get(key, true)
	if !ok {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		r.fail("%s is %T, not a bool", key, v)
	}
	return b
}

func (r *fields) list(key string) []any { return r.listOf(key, false) }

func (r *fields) optList(key string) []any { return r.listOf(key, true) }

func (r *fields) listOf(key string, optional bool) []any {
	v, ok := r.get(key, optional)
	if !ok {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		r.fail("%s is %T, not an array", key, v)
	}
	return l
}
