package pyeval

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gotriton/gotriton/target"
)

// The versions of the packages that host code sees (triton.__version__, torch.__version__,
// importlib.metadata.version), and of Python (sys.version_info): the environment whose
// semantics gotriton follows.
const (
	TritonVersion = "3.6.0"
	TorchVersion  = "2.11.0"
	pythonVersion = "3.12.0"
)

// torchDtypeAliases maps torch's alternative dtype names to the canonical ones
// (torch.half is torch.float16).
var torchDtypeAliases = map[string]string{
	"half": "float16", "float": "float32", "double": "float64", "short": "int16", "int": "int32",
	"long": "int64", "cfloat": "complex64", "cdouble": "complex128", "chalf": "complex32",
}

// torchAliases are names in torch that are Triton's modules: what Inductor's generated
// code imports from torch._inductor.runtime.triton_helpers resolves, with Triton 3.6
// installed, to triton.language.extra.libdevice and triton.language.math.
var torchAliases = map[string]string{
	"torch._inductor.runtime.triton_helpers.libdevice": "triton.language.extra.libdevice",
	"torch._inductor.runtime.triton_helpers.math":      "triton.language.math",
}

// floatInfo is torch.finfo of one floating-point dtype.
type floatInfo struct {
	bits                   int
	eps, max, tiny, resolu float64
}

// torchFloatInfo holds torch.finfo of each floating-point dtype.
var torchFloatInfo = map[string]floatInfo{
	"float16":         {16, 0x1p-10, 65504, 0x1p-14, 0.001},
	"bfloat16":        {16, 0x1p-7, 0x1.fep127, 0x1p-126, 0.01},
	"float32":         {32, 0x1p-23, math.MaxFloat32, 0x1p-126, 1e-06},
	"float64":         {64, 0x1p-52, math.MaxFloat64, 0x1p-1022, 1e-15},
	"float8_e4m3fn":   {8, 0x1p-3, 448, 0x1p-6, 1},
	"float8_e5m2":     {8, 0x1p-2, 57344, 0x1p-14, 1},
	"float8_e4m3fnuz": {8, 0x1p-3, 240, 0x1p-7, 1},
	"float8_e5m2fnuz": {8, 0x1p-2, 57344, 0x1p-15, 1},
}

// torchIntBits holds the width and signedness of each integer dtype.
var torchIntBits = map[string]struct {
	bits   int
	signed bool
}{
	"int8": {8, true}, "int16": {16, true}, "int32": {32, true}, "int64": {64, true},
	"uint8": {8, false}, "uint16": {16, false}, "uint32": {32, false}, "uint64": {64, false},
}

// torchDtype returns the canonical name of a torch dtype Ref (float16 for torch.half).
func torchDtype(v Value) (string, bool) {
	r, ok := v.(Ref)
	if !ok {
		return "", false
	}
	name, ok := strings.CutPrefix(r.Path, "torch.")
	if !ok {
		return "", false
	}
	if _, ok := torchFloatInfo[name]; ok {
		return name, true
	}
	if _, ok := torchIntBits[name]; ok {
		return name, true
	}
	return name, name == "bool" || strings.HasPrefix(name, "complex")
}

func finfo(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	dt := orDefault(kw(args, kwargs, 0, "type"), Ref{"torch.float32"})
	if u, ok := dt.(Unknown); ok {
		return u, nil
	}
	name, _ := torchDtype(dt)
	fi, ok := torchFloatInfo[name]
	if !ok {
		if _, isDtype := torchDtype(dt); isDtype {
			return nil, typeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
		}
		return unknownf("torch.finfo(%s)", Repr(dt)), nil
	}
	return &Object{Class: "finfo", Attrs: map[string]Value{
		"bits": NewInt(int64(fi.bits)), "eps": Float(fi.eps), "max": Float(fi.max), "min": Float(-fi.max),
		"tiny": Float(fi.tiny), "smallest_normal": Float(fi.tiny), "resolution": Float(fi.resolu),
		"dtype": Str(name),
	}}, nil
}

func iinfo(_ *evaluator, args []Value, kwargs *Dict) (Value, error) {
	dt := kw(args, kwargs, 0, "type")
	if dt == nil {
		return nil, typeError("iinfo() missing required argument 'type'")
	}
	if u, ok := dt.(Unknown); ok {
		return u, nil
	}
	name, isDtype := torchDtype(dt)
	ii, ok := torchIntBits[name]
	if !ok {
		if isDtype {
			return nil, typeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle '%s'", name)
		}
		return unknownf("torch.iinfo(%s)", Repr(dt)), nil
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(ii.bits))
	if ii.signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	return &Object{Class: "iinfo", Attrs: map[string]Value{
		"bits": NewInt(int64(ii.bits)), "min": Int{lo}, "max": Int{hi}, "dtype": Str(name),
	}}, nil
}

// dtypeAttr answers the attributes of a torch dtype that host code reads.
func dtypeAttr(name, attr string) (Value, bool) {
	fi, isFloat := torchFloatInfo[name]
	ii, isInt := torchIntBits[name]
	switch attr {
	case "itemsize":
		switch {
		case isFloat:
			return NewInt(int64(fi.bits / 8)), true
		case isInt:
			return NewInt(int64(ii.bits / 8)), true
		case name == "bool":
			return NewInt(1), true
		}
	case "is_floating_point":
		return Bool(isFloat), true
	case "is_signed":
		return Bool(isFloat || (isInt && ii.signed)), true
	case "is_complex":
		return Bool(strings.HasPrefix(name, "complex")), true
	}
	return nil, false
}

// version is a parsed version number, as packaging.version.Version and torch's
// TorchVersion compare them: release numbers, then pre-release, then local labels.
type version struct {
	text    string
	release []int
	pre     string // "a1", "b2", "rc1", ".dev3", or ""
	local   string
}

// Version is a packaging.version.Version.
type Version struct{ v version }

func (Version) TypeName() string { return "Version" }
func (v Version) String() string { return "<Version('" + v.v.canonical() + "')>" }

// TorchVersionStr is torch.__version__: a str that compares as a version.
type TorchVersionStr struct{ S string }

func (TorchVersionStr) TypeName() string { return "TorchVersion" }
func (v TorchVersionStr) String() string { return StrRepr(v.S) }

func parseVersion(s string) (version, bool) {
	v := version{text: s}
	t := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v")
	t, v.local, _ = strings.Cut(t, "+")
	i := 0
	for {
		j := i
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j == i {
			return v, false
		}
		n, _ := strconv.Atoi(t[i:j])
		v.release = append(v.release, n)
		i = j
		if i < len(t) && t[i] == '.' && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	v.pre = strings.TrimLeft(t[i:], "-_")
	return v, true
}

func (v version) canonical() string {
	parts := make([]string, len(v.release))
	for i, n := range v.release {
		parts[i] = strconv.Itoa(n)
	}
	s := strings.Join(parts, ".") + v.pre
	if v.local != "" {
		s += "+" + v.local
	}
	return s
}

// preRank orders pre-release and development labels: dev < a < b < rc < final < post.
func preRank(pre string) (int, int) {
	num := func(s string) int {
		n, _ := strconv.Atoi(strings.TrimLeft(s, "._-"))
		return n
	}
	for _, p := range []struct {
		prefix string
		rank   int
	}{{".dev", 0}, {"dev", 0}, {"rc", 3}, {"a", 1}, {"b", 2}, {".post", 5}, {"post", 5}} {
		if rest, ok := strings.CutPrefix(pre, p.prefix); ok {
			return p.rank, num(rest)
		}
	}
	return 4, 0 // a final release, or a label packaging would reject
}

func compareVersions(a, b version) int {
	for i := 0; i < max(len(a.release), len(b.release)); i++ {
		x, y := 0, 0
		if i < len(a.release) {
			x = a.release[i]
		}
		if i < len(b.release) {
			y = b.release[i]
		}
		if x != y {
			return cmpInt(x, y)
		}
	}
	ra, na := preRank(a.pre)
	rb, nb := preRank(b.pre)
	if ra != rb {
		return cmpInt(ra, rb)
	}
	if na != nb {
		return cmpInt(na, nb)
	}
	return strings.Compare(a.local, b.local)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// asVersion reads a Version, a TorchVersion, or (when the other side is a version) a str
// or tuple of ints, as the comparison operators of both accept them.
func asVersion(v Value, strOK bool) (version, bool) {
	switch v := v.(type) {
	case Version:
		return v.v, true
	case TorchVersionStr:
		return parseVersion(v.S)
	case Str:
		if strOK {
			return parseVersion(string(v))
		}
	case Tuple:
		if strOK {
			parts := make([]string, len(v))
			for i, e := range v {
				parts[i] = ToStr(e)
			}
			return parseVersion(strings.Join(parts, "."))
		}
	}
	return version{}, false
}

// versionOrder compares a and b when either is a version, as packaging and torch do.
func versionOrder(a, b Value) (int, bool) {
	_, av := a.(Version)
	_, bv := b.(Version)
	_, at := a.(TorchVersionStr)
	_, bt := b.(TorchVersionStr)
	if !av && !bv && !at && !bt {
		return 0, false
	}
	x, ok1 := asVersion(a, at || bt)
	y, ok2 := asVersion(b, at || bt)
	if !ok1 || !ok2 {
		return 0, false
	}
	return compareVersions(x, y), true
}

func versionParse(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("Version", args, 1, 1); err != nil {
		return nil, err
	}
	switch a := args[0].(type) {
	case Unknown:
		return a, nil
	case Str, TorchVersionStr:
		v, ok := parseVersion(ToStr(a))
		if !ok {
			return nil, &Error{"InvalidVersion", "Invalid version: " + StrRepr(ToStr(a))}
		}
		return Version{v}, nil
	}
	return nil, typeError("expected string or bytes-like object, got '%s'", args[0].TypeName())
}

// versionAttr answers the attributes of a packaging Version.
func versionAttr(v version, name string) (Value, bool) {
	rel := func(i int) Value {
		if i < len(v.release) {
			return NewInt(int64(v.release[i]))
		}
		return NewInt(0)
	}
	switch name {
	case "major":
		return rel(0), true
	case "minor":
		return rel(1), true
	case "micro":
		return rel(2), true
	case "release":
		out := make(Tuple, len(v.release))
		for i := range v.release {
			out[i] = rel(i)
		}
		return out, true
	case "base_version":
		return Str(version{release: v.release}.canonical()), true
	case "public":
		return Str(version{release: v.release, pre: v.pre}.canonical()), true
	case "local":
		if v.local == "" {
			return None, true
		}
		return Str(v.local), true
	case "is_prerelease", "is_devrelease":
		r, _ := preRank(v.pre)
		return Bool(r < 4 && (name == "is_prerelease" || r == 0)), true
	}
	return nil, false
}

func metadataVersion(_ *evaluator, args []Value, _ *Dict) (Value, error) {
	if err := wantArgs("version", args, 1, 1); err != nil {
		return nil, err
	}
	switch ToStr(args[0]) {
	case "triton":
		return Str(TritonVersion), nil
	case "torch":
		return Str(TorchVersion), nil
	}
	return unknownf("importlib.metadata.version(%s): which packages are installed is not known offline", Repr(args[0])), nil
}

// versionInfo is sys.version_info.
func versionInfo() *StructSeq {
	v, _ := parseVersion(pythonVersion)
	return &StructSeq{Name: "sys.version_info", Fields: []string{"major", "minor", "micro", "releaselevel", "serial"},
		Tuple: Tuple{NewInt(int64(v.release[0])), NewInt(int64(v.release[1])), NewInt(int64(v.release[2])), Str("final"), NewInt(0)}}
}

// StructSeq is a tuple whose items are also attributes (sys.version_info).
type StructSeq struct {
	Name   string
	Fields []string
	Tuple  Tuple
}

func (*StructSeq) TypeName() string { return "tuple" }
func (s *StructSeq) String() string {
	parts := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		parts[i] = f + "=" + Repr(s.Tuple[i])
	}
	return s.Name + "(" + strings.Join(parts, ", ") + ")"
}

// torchDeviceProperties is torch.cuda.get_device_properties(device) of the target's reference
// part. Facts that differ between parts of one architecture (memory size, clocks) are
// Unknown.
func torchDeviceProperties(t target.Target) *Object {
	major, minor := deviceCapability(t)[0], deviceCapability(t)[1]
	attrs := map[string]Value{
		"major": major, "minor": minor, "multi_processor_count": NewInt(int64(t.NumSMs)),
		"warp_size": NewInt(int64(t.WarpSize)), "shared_memory_per_block": NewInt(49152),
		"shared_memory_per_block_optin": NewInt(int64(t.SharedPerBlock)),
		"regs_per_multiprocessor":       NewInt(65536), "is_integrated": Bool(false),
		"is_multi_gpu_board": Bool(false), "gcnArchName": Str("NVIDIA"),
	}
	switch {
	case t.IsNVIDIA():
		attrs["max_threads_per_multi_processor"] = NewInt(2048)
		if name, ok := nvidiaPartNames[t.Capability]; ok {
			attrs["name"] = Str(name)
		}
	default:
		attrs["gcnArchName"] = Str(t.Arch)
		attrs["max_threads_per_multi_processor"] = NewInt(2048)
		attrs["shared_memory_per_block"] = NewInt(int64(t.SharedPerBlock))
	}
	return &Object{Class: "_CudaDeviceProperties", Attrs: attrs, Open: true}
}

// nvidiaPartNames names the reference part of each architecture (the part whose facts
// the target package holds).
var nvidiaPartNames = map[int]string{80: "NVIDIA A100-SXM4-80GB", 90: "NVIDIA H200", 100: "NVIDIA B200"}

// driverDeviceProperties is triton.runtime.driver.active.utils.get_device_properties(dev):
// the dict Triton's backend driver builds from the CUDA or HIP device attributes.
func driverDeviceProperties(t target.Target) *Dict {
	d := &Dict{}
	regs := int64(65536)
	smem := int64(t.SharedPerBlock)
	d.Set(Str("max_shared_mem"), NewInt(smem))
	d.Set(Str("max_num_regs"), NewInt(regs))
	d.Set(Str("multiprocessor_count"), NewInt(int64(t.NumSMs)))
	d.Set(Str("warpSize"), NewInt(int64(t.WarpSize)))
	for _, k := range []string{"sm_clock_rate", "mem_clock_rate", "mem_bus_width"} {
		d.Set(Str(k), unknownf("get_device_properties()['%s'] depends on the particular device", k))
	}
	if !t.IsNVIDIA() {
		d.Set(Str("arch"), Str(t.Arch))
	}
	return d
}

// torchVersionAttr answers torch.version: the CUDA or HIP build of torch that matches the target.
func torchVersionAttr(t target.Target, name string) (Value, bool) {
	switch name {
	case "cuda":
		if t.IsNVIDIA() {
			return Str("13.0"), true // the torch 2.11 build of the reference H200 machine
		}
		return None, true
	case "hip":
		if t.IsNVIDIA() {
			return None, true
		}
		return Str("6.4"), true
	case "__version__":
		return TorchVersionStr{TorchVersion}, true
	}
	return nil, false
}

// nextPowerOf2 is triton.next_power_of_2 as Triton 3.6 computes it: bit-smearing up to 64
// bits, so 0 gives 0.
func nextPowerOf2(n *big.Int) *big.Int {
	r := new(big.Int).Sub(n, big.NewInt(1))
	for _, s := range []uint{1, 2, 4, 8, 16, 32} {
		r.Or(r, new(big.Int).Rsh(r, s))
	}
	return r.Add(r, big.NewInt(1))
}
