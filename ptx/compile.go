package ptx

import (
	"fmt"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
)

// Options selects the PTX target.
type Options struct {
	// Arch is the target architecture: "sm_80", "sm_86", "sm_89", "sm_90"
	// or "sm_90a". Empty means "sm_90a".
	Arch string
	// PTXVersion is the PTX ISA version times ten (84 means 8.4). Zero
	// means DefaultPTXVersion.
	PTXVersion int
	// FPFusion contracts a floating multiply and the add or subtract that uses it into
	// one fma.rn, as LLVM's NVPTX backend does under Triton's enable_fp_fusion (on by
	// default in Triton and in package compiler), and leaves the other fadd, fsub and fmul
	// without .rn, for ptxas to contract too. Off, every fadd, fsub and fmul without the
	// contract flag is rounded on its own (add.rn, sub.rn, mul.rn), as llc does by default.
	FPFusion bool
}

// DefaultPTXVersion is the PTX ISA version written when Options.PTXVersion is
// zero. PTX 8.4 is accepted by ptxas from CUDA 12.4 on, CUDA 13 included,
// and by LLVM's NVPTX backend (+ptx84).
const DefaultPTXVersion = 84

// minPTX is the lowest PTX ISA version that knows each architecture.
var minPTX = map[string]int{
	"sm_80": 70, "sm_86": 71, "sm_87": 74, "sm_89": 78, "sm_90": 78, "sm_90a": 80,
}

// Compile turns every kernel of m into PTX text. The accepted LLVM IR is
// described in the package documentation; anything else is an error that
// names the function and the instruction.
func Compile(m *ir.Module, opts Options) (out string, err error) {
	c := &compiler{}
	defer func() { // an emitter bug must not take the caller down
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("ptx: %s: the PTX emitter failed (a gotriton bug, please report it): %v%s", c.failedConstruct(), r, panicSite())
		}
	}()
	if opts.Arch == "" {
		opts.Arch = "sm_90a"
	}
	if opts.PTXVersion == 0 {
		opts.PTXVersion = DefaultPTXVersion
	}
	low, ok := minPTX[opts.Arch]
	if !ok {
		return "", fmt.Errorf("ptx: unsupported architecture %q (want one of sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)", opts.Arch)
	}
	if opts.PTXVersion < low {
		return "", fmt.Errorf("ptx: %s needs PTX ISA %d.%d or later, not %d.%d", opts.Arch, low/10, low%10, opts.PTXVersion/10, opts.PTXVersion%10)
	}
	*c = compiler{opts: opts, lay: parseLayout(m.DataLayout), files: map[string]int{}, fileNums: map[*metadata.DIFile]int{},
		asmConstraints: map[string][]asmConstraint{}, asmTemplates: map[string]*asmTemplate{}}
	return c.module(m)
}

// panicSite names the function and line that panicked, as " (in F at FILE:LINE)"; it is
// called by the deferred recover of Compile, so the frames above it are the deferred
// function, the runtime's panic machinery and then the culprit.
func panicSite() string {
	pc := make([]uintptr, 16)
	frames := runtime.CallersFrames(pc[:runtime.Callers(3, pc)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" (in %s at %s:%d)", f.Function, path.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// compiler holds the state of one Compile call.
type compiler struct {
	opts     Options
	lay      *layout
	files    map[string]int           // .file index per source path
	fileNums map[*metadata.DIFile]int // cache of fileIndex
	locs     []*metadata.DILocation   // debug location of each instruction, see collectFiles
	locStart map[*ir.Block]int        // index in locs of each block's first instruction
	lb       *locBuf                  // where locs and locStart come from
	out      strings.Builder

	asmConstraints map[string][]asmConstraint // parsed inline asm constraint strings
	asmTemplates   map[string]*asmTemplate    // parsed inline asm templates
	funcNames      map[*ir.Func]string        // see funcName

	// What is being emitted, for the message of a recovered panic: the kernel, the
	// instruction (nil between instructions) and its debug location.
	curFunc *ir.Func
	curInst interface{ LLString() string }
	curLoc  *metadata.DILocation
}

// llText prints an instruction, "?" where a malformed one cannot be printed.
func llText(inst interface{ LLString() string }) (text string) {
	defer func() {
		if recover() != nil {
			text = "?"
		}
	}()
	return strings.TrimSpace(inst.LLString())
}

// failedConstruct names what was being emitted: the function, the instruction and its
// source position where known.
func (c *compiler) failedConstruct() string {
	if c.curFunc == nil {
		return "module"
	}
	s := "function @" + c.curFunc.Name()
	if c.curInst == nil {
		return s
	}
	s += ": instruction `" + llText(c.curInst) + "`"
	if di := c.curLoc; di != nil {
		if f := scopeFile(di.Scope); f != nil {
			s += fmt.Sprintf(" (from %s:%d:%d)", path.Join(f.Directory, f.Filename), di.Line, di.Column)
		}
	}
	return s
}

// parseLayout reads the pointer widths ("pN:size:...") of a data layout.
func parseLayout(dl string) *layout {
	l := &layout{ptrBits: map[types.AddrSpace]int{}}
	for _, spec := range strings.Split(dl, "-") {
		if !strings.HasPrefix(spec, "p") {
			continue
		}
		parts := strings.Split(spec[1:], ":")
		if len(parts) < 2 {
			continue
		}
		as, err1 := strconv.Atoi(parts[0])
		if parts[0] == "" {
			as, err1 = 0, nil
		}
		bits, err2 := strconv.Atoi(parts[1])
		if err1 == nil && err2 == nil {
			l.ptrBits[types.AddrSpace(as)] = bits
		}
	}
	return l
}

// kernelInfo gathers a kernel's launch bounds from nvvm attributes
// ("nvvm.reqntid"="128") and from !nvvm.annotations.
type kernelInfo struct {
	kernel                 bool
	reqntid, maxntid       []int
	maxnreg, minctasm      int
	reqntidAnn, maxntidAnn [3]int
}

func (c *compiler) module(m *ir.Module) (string, error) {
	infos := map[*ir.Func]*kernelInfo{}
	info := func(f *ir.Func) *kernelInfo {
		if infos[f] == nil {
			infos[f] = &kernelInfo{}
		}
		return infos[f]
	}
	if err := readAnnotations(m, info); err != nil {
		return "", err
	}
	var kernels, externs []*ir.Func
	for _, f := range m.Funcs {
		if len(f.Blocks) == 0 {
			if !strings.HasPrefix(f.Name(), "llvm.") {
				externs = append(externs, f) // e.g. vprintf; intrinsics are checked at their calls
			}
			continue
		}
		ki := info(f)
		ki.kernel = ki.kernel || f.CallingConv == enum.CallingConvPTXKernel
		if !ki.kernel {
			return "", fmt.Errorf("ptx: function @%s: only kernels (ptx_kernel or nvvm.annotations \"kernel\") are supported; inline device functions before emitting PTX", f.Name())
		}
		if err := readFuncAttrs(f.FuncAttrs, ki); err != nil {
			return "", fmt.Errorf("ptx: function @%s: %v", f.Name(), err)
		}
		kernels = append(kernels, f)
	}
	c.collectFiles(kernels)
	defer c.putLocs()

	o := &c.out
	o.WriteString("//\n// Generated by gotriton\n//\n\n")
	fmt.Fprintf(o, ".version %d.%d\n.target %s\n.address_size 64\n\n", c.opts.PTXVersion/10, c.opts.PTXVersion%10, c.opts.Arch)
	for _, f := range kernels {
		fmt.Fprintf(o, "\t// .globl\t%s\n", symbol(f.Name()))
	}
	for _, f := range externs {
		if err := c.extern(f); err != nil {
			return "", err
		}
	}
	for _, g := range m.Globals {
		if err := c.global(g); err != nil {
			return "", err
		}
	}
	if len(c.files) > 0 {
		paths := make([]string, 0, len(c.files))
		for p := range c.files {
			paths = append(paths, p)
		}
		sort.Slice(paths, func(i, j int) bool { return c.files[paths[i]] < c.files[paths[j]] })
		for _, p := range paths {
			fmt.Fprintf(o, "\t.file\t%d %q\n", c.files[p], p)
		}
	}
	for i, f := range kernels {
		c.curFunc, c.curInst, c.curLoc = f, nil, nil
		o.WriteString("\n")
		if err := c.kernel(f, i, infos[f]); err != nil {
			return "", fmt.Errorf("ptx: function @%s: %v", f.Name(), err)
		}
	}
	return o.String(), nil
}

// readAnnotations applies !nvvm.annotations entries: {fn, !"key", i32 N}.
func readAnnotations(m *ir.Module, info func(*ir.Func) *kernelInfo) error {
	nd := m.NamedMetadataDefs["nvvm.annotations"]
	if nd == nil {
		return nil
	}
	for _, n := range nd.Nodes {
		t, ok := n.(*metadata.Tuple)
		if !ok {
			continue
		}
		for i := 1; i+1 < len(t.Fields); i += 2 { // fn, then key/value pairs
			f := mdFunc(t.Fields[0])
			key, ok1 := t.Fields[i].(*metadata.String)
			val, ok2 := mdInt(t.Fields[i+1])
			if f == nil || !ok1 || !ok2 {
				continue
			}
			ki := info(f)
			switch key.Value {
			case "kernel":
				ki.kernel = val == 1
			case "reqntidx", "reqntidy", "reqntidz":
				ki.reqntidAnn[key.Value[len(key.Value)-1]-'x'] = val
			case "maxntidx", "maxntidy", "maxntidz":
				ki.maxntidAnn[key.Value[len(key.Value)-1]-'x'] = val
			case "maxnreg":
				ki.maxnreg = val
			case "minctasm":
				ki.minctasm = val
			}
		}
	}
	return nil
}

// mdField unwraps a metadata tuple field ("!{... @f, i32 1}").
func mdField(f metadata.Field) interface{} {
	if v, ok := f.(*metadata.Value); ok {
		return v.Value
	}
	return f
}

func mdFunc(f metadata.Field) *ir.Func {
	fn, _ := mdField(f).(*ir.Func)
	return fn
}

func mdInt(f metadata.Field) (int, bool) {
	if c, ok := mdField(f).(*constant.Int); ok {
		return int(c.X.Int64()), true
	}
	return 0, false
}

// readFuncAttrs reads "nvvm.reqntid", "nvvm.maxntid", "nvvm.maxnreg" and
// "nvvm.minctasm" string attributes, directly or through attribute groups.
func readFuncAttrs(attrs []ir.FuncAttribute, ki *kernelInfo) error {
	for _, a := range attrs {
		switch a := a.(type) {
		case *ir.AttrGroupDef:
			if err := readFuncAttrs(a.FuncAttrs, ki); err != nil {
				return err
			}
		case ir.AttrPair:
			var dims []int
			if strings.HasPrefix(a.Key, "nvvm.") {
				for _, s := range strings.Split(a.Value, ",") {
					n, err := strconv.Atoi(strings.TrimSpace(s))
					if err != nil {
						return fmt.Errorf("attribute %q=%q: not a list of integers", a.Key, a.Value)
					}
					dims = append(dims, n)
				}
			}
			switch a.Key {
			case "nvvm.reqntid":
				ki.reqntid = dims
			case "nvvm.maxntid":
				ki.maxntid = dims
			case "nvvm.maxnreg":
				ki.maxnreg = dims[0]
			case "nvvm.minctasm":
				ki.minctasm = dims[0]
			}
		}
	}
	return nil
}

// dims3 returns a thread-count directive operand "x, y, z".
func dims3(d []int, ann [3]int) string {
	if len(d) == 0 && ann[0] != 0 {
		d = []int{ann[0], max(ann[1], 1), max(ann[2], 1)}
	}
	if len(d) == 0 {
		return ""
	}
	for len(d) < 3 {
		d = append(d, 1)
	}
	return fmt.Sprintf("%d, %d, %d", d[0], d[1], d[2])
}

// symbol turns an LLVM name into a PTX identifier, as LLVM does: characters
// outside [A-Za-z0-9_$] become "_$_".
func symbol(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteString("_$_")
		}
	}
	return b.String()
}

// extern declares a device function defined elsewhere (the CUDA runtime's vprintf):
// ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, ...);".
// Parameters and results are 32- or 64-bit scalars or pointers.
func (c *compiler) extern(f *ir.Func) error {
	name := symbol(f.Name())
	o := &c.out
	o.WriteString(".extern .func ")
	if !types.Equal(f.Sig.RetType, types.Void) {
		bits, err := c.lay.callBits(f.Sig.RetType)
		if err != nil {
			return fmt.Errorf("ptx: function @%s: result: %v", f.Name(), err)
		}
		fmt.Fprintf(o, "(.param .b%d func_retval0) ", bits)
	}
	o.WriteString(name + "\n(\n")
	for i, p := range f.Sig.Params {
		bits, err := c.lay.callBits(p)
		if err != nil {
			return fmt.Errorf("ptx: function @%s: parameter %d: %v", f.Name(), i, err)
		}
		if i > 0 {
			o.WriteString(",\n")
		}
		fmt.Fprintf(o, "\t.param .b%d %s_param_%d", bits, name, i)
	}
	o.WriteString("\n)\n;\n")
	return nil
}

// spaceName is the PTX state space of an LLVM NVPTX address space.
var spaceName = map[types.AddrSpace]string{0: "", 1: ".global", 3: ".shared", 4: ".const", 5: ".local"}

// global declares a module-level variable. Shared variables (address space
// 3) may be external ("extern .shared ... []", Triton's global_smem) or sized
// and uninitialized; global and constant ones may carry an initializer.
func (c *compiler) global(g *ir.Global) error {
	sp, ok := spaceName[g.Typ.AddrSpace]
	if !ok || sp == "" || sp == ".local" {
		return fmt.Errorf("ptx: global @%s: address space %d is not supported", g.Name(), g.Typ.AddrSpace)
	}
	size, align, err := c.lay.sizeAlign(g.ContentType)
	if err != nil {
		return fmt.Errorf("ptx: global @%s: %v", g.Name(), err)
	}
	if g.Align != 0 {
		align = int64(g.Align)
	}
	name := symbol(g.Name())
	if g.Init == nil {
		vis := ".extern "
		if g.Linkage == enum.LinkageInternal || g.Linkage == enum.LinkagePrivate {
			vis = ""
		}
		if size == 0 {
			fmt.Fprintf(&c.out, "%s%s .align %d .b8 %s[];\n", vis, sp, align, name)
		} else {
			fmt.Fprintf(&c.out, "%s%s .align %d .b8 %s[%d];\n", vis, sp, align, name, size)
		}
		return nil
	}
	switch g.Init.(type) {
	case *constant.Undef, *constant.Poison:
		fmt.Fprintf(&c.out, "%s .align %d .b8 %s[%d];\n", sp, align, name, size)
		return nil
	}
	if sp == ".shared" {
		return fmt.Errorf("ptx: global @%s: shared memory cannot be initialized (use undef)", g.Name())
	}
	bytes := make([]byte, 0, size)
	bytes, err = c.constBytes(bytes, g.Init)
	if err != nil {
		return fmt.Errorf("ptx: global @%s: %v", g.Name(), err)
	}
	parts := make([]string, len(bytes))
	for i, b := range bytes {
		parts[i] = strconv.Itoa(int(b))
	}
	vis := ".visible "
	if g.Linkage == enum.LinkageInternal || g.Linkage == enum.LinkagePrivate {
		vis = ""
	}
	fmt.Fprintf(&c.out, "%s%s .align %d .b8 %s[%d] = {%s};\n", vis, sp, align, name, len(bytes), strings.Join(parts, ", "))
	return nil
}

// constBytes appends the little-endian memory image of a constant.
func (c *compiler) constBytes(out []byte, k constant.Constant) ([]byte, error) {
	put := func(bits uint64, n int64) []byte {
		for i := int64(0); i < n; i++ {
			out = append(out, byte(bits>>(8*i)))
		}
		return out
	}
	size, _, err := c.lay.sizeAlign(k.Type())
	if err != nil {
		return nil, err
	}
	switch k := k.(type) {
	case *constant.Int:
		return put(k.X.Uint64(), size), nil
	case *constant.Float:
		bits, err := floatBits(k)
		return put(bits, size), err
	case *constant.ZeroInitializer, *constant.Null, *constant.Undef, *constant.Poison:
		return put(0, size), nil
	case *constant.CharArray:
		return append(out, k.X...), nil
	case *constant.Array:
		for _, e := range k.Elems {
			if out, err = c.constBytes(out, e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *constant.Vector:
		for _, e := range k.Elems {
			if out, err = c.constBytes(out, e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *constant.Struct:
		start := len(out)
		st := k.Typ
		for i, f := range k.Fields {
			off, err := c.lay.fieldOffset(st, i)
			if err != nil {
				return nil, err
			}
			out = put(0, int64(start)+off-int64(len(out)))
			if out, err = c.constBytes(out, f); err != nil {
				return nil, err
			}
		}
		return put(0, int64(start)+size-int64(len(out))), nil
	}
	return nil, fmt.Errorf("initializer %s is not supported", k)
}
