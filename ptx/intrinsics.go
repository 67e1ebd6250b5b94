package ptx

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
)

// intrinsic describes how one LLVM intrinsic becomes one PTX instruction.
type intrinsic struct {
	op    string   // PTX opcode; "{t}" stands for the type suffix
	kind  byte     // type suffix: 'f' the float type, 's'/'u'/'b' plus the width; 0 none
	args  []string // operands after the result: "$N" is call argument N, others are literal; nil: all in order
	res32 bool     // the PTX result is .u32 whatever the LLVM width (popc, clz)
}

// intrinsics is keyed by the intrinsic name without its overload suffix
// (".f32", ".i64", ...) when it has one.
var intrinsics = map[string]intrinsic{
	// Synchronization.
	"llvm.nvvm.barrier0":                     {op: "bar.sync", args: []string{"0"}},
	"llvm.nvvm.barrier.cta.sync.aligned.all": {op: "bar.sync"},
	"llvm.nvvm.barrier.sync":                 {op: "barrier.sync"},
	"llvm.nvvm.bar.warp.sync":                {op: "bar.warp.sync"},
	"llvm.nvvm.membar.cta":                   {op: "membar.cta"},
	"llvm.nvvm.membar.gl":                    {op: "membar.gl"},
	"llvm.nvvm.membar.sys":                   {op: "membar.sys"},
	// Warp-level primitives: (mask, value, lane/delta, clamp).
	"llvm.nvvm.shfl.sync.bfly.i32": {op: "shfl.sync.bfly.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.bfly.f32": {op: "shfl.sync.bfly.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.idx.i32":  {op: "shfl.sync.idx.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.idx.f32":  {op: "shfl.sync.idx.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.up.i32":   {op: "shfl.sync.up.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.up.f32":   {op: "shfl.sync.up.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.down.i32": {op: "shfl.sync.down.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.shfl.sync.down.f32": {op: "shfl.sync.down.b32", args: []string{"$1", "$2", "$3", "$0"}},
	"llvm.nvvm.vote.ballot.sync":   {op: "vote.sync.ballot.b32", args: []string{"$1", "$0"}},
	"llvm.nvvm.vote.all.sync":      {op: "vote.sync.all.pred", args: []string{"$1", "$0"}},
	"llvm.nvvm.vote.any.sync":      {op: "vote.sync.any.pred", args: []string{"$1", "$0"}},
	"llvm.nvvm.vote.uni.sync":      {op: "vote.sync.uni.pred", args: []string{"$1", "$0"}},
	// Fast approximate math (Triton's fast-math and libdevice paths).
	"llvm.nvvm.ex2.approx.f":       {op: "ex2.approx.f32"},
	"llvm.nvvm.ex2.approx.ftz.f":   {op: "ex2.approx.ftz.f32"},
	"llvm.nvvm.ex2.approx.f16":     {op: "ex2.approx.f16"},
	"llvm.nvvm.lg2.approx.f":       {op: "lg2.approx.f32"},
	"llvm.nvvm.lg2.approx.ftz.f":   {op: "lg2.approx.ftz.f32"},
	"llvm.nvvm.sin.approx.f":       {op: "sin.approx.f32"},
	"llvm.nvvm.sin.approx.ftz.f":   {op: "sin.approx.ftz.f32"},
	"llvm.nvvm.cos.approx.f":       {op: "cos.approx.f32"},
	"llvm.nvvm.cos.approx.ftz.f":   {op: "cos.approx.ftz.f32"},
	"llvm.nvvm.rsqrt.approx.f":     {op: "rsqrt.approx.f32"},
	"llvm.nvvm.rsqrt.approx.ftz.f": {op: "rsqrt.approx.ftz.f32"},
	"llvm.nvvm.rsqrt.approx.d":     {op: "rsqrt.approx.f64"},
	"llvm.nvvm.sqrt.approx.f":      {op: "sqrt.approx.f32"},
	"llvm.nvvm.sqrt.approx.ftz.f":  {op: "sqrt.approx.ftz.f32"},
	"llvm.nvvm.sqrt.rn.f":          {op: "sqrt.rn.f32"},
	"llvm.nvvm.sqrt.f":             {op: "sqrt.rn.f32"},
	"llvm.nvvm.rcp.rn.f":           {op: "rcp.rn.f32"},
	"llvm.nvvm.rcp.rn.d":           {op: "rcp.rn.f64"},
	"llvm.nvvm.rcp.approx.ftz.f":   {op: "rcp.approx.ftz.f32"},
	"llvm.nvvm.div.approx.f":       {op: "div.approx.f32"},
	"llvm.nvvm.div.full":           {op: "div.full.f32"},
	"llvm.nvvm.div.rn.f":           {op: "div.rn.f32"},
	"llvm.nvvm.fma.rn.f":           {op: "fma.rn.f32"},
	"llvm.nvvm.fma.rn.d":           {op: "fma.rn.f64"},
	"llvm.nvvm.fmax.f":             {op: "max.f32"},
	"llvm.nvvm.fmin.f":             {op: "min.f32"},
	"llvm.nvvm.fmax.ftz.f":         {op: "max.ftz.f32"},
	"llvm.nvvm.fmin.ftz.f":         {op: "min.ftz.f32"},
	"llvm.nvvm.fmax.nan.f":         {op: "max.NaN.f32"},
	"llvm.nvvm.fmin.nan.f":         {op: "min.NaN.f32"},
	"llvm.nvvm.fmax.d":             {op: "max.f64"},
	"llvm.nvvm.fmin.d":             {op: "min.f64"},
	"llvm.nvvm.saturate.f":         {op: "cvt.sat.f32.f32"},
	"llvm.nvvm.floor.f":            {op: "cvt.rmi.f32.f32"},
	"llvm.nvvm.ceil.f":             {op: "cvt.rpi.f32.f32"},
	"llvm.nvvm.trunc.f":            {op: "cvt.rzi.f32.f32"},
	"llvm.nvvm.mulhi.i":            {op: "mul.hi.s32"},
	"llvm.nvvm.mulhi.ui":           {op: "mul.hi.u32"},
	"llvm.nvvm.mulhi.ll":           {op: "mul.hi.s64"},
	"llvm.nvvm.mulhi.ull":          {op: "mul.hi.u64"},
	"llvm.nvvm.prmt":               {op: "prmt.b32"},
	// Target-independent intrinsics, overloaded on their type.
	"llvm.fma":        {op: "fma.rn.{t}", kind: 'f'},
	"llvm.fmuladd":    {op: "fma.rn.{t}", kind: 'f'},
	"llvm.sqrt":       {op: "sqrt.rn.{t}", kind: 'f'},
	"llvm.fabs":       {op: "abs.{t}", kind: 'f'},
	"llvm.minnum":     {op: "min.{t}", kind: 'f'},
	"llvm.maxnum":     {op: "max.{t}", kind: 'f'},
	"llvm.minimum":    {op: "min.NaN.{t}", kind: 'f'},
	"llvm.maximum":    {op: "max.NaN.{t}", kind: 'f'},
	"llvm.copysign":   {op: "copysign.{t}", kind: 'f', args: []string{"$1", "$0"}},
	"llvm.floor":      {op: "cvt.rmi.{t}.{t}", kind: 'f'},
	"llvm.ceil":       {op: "cvt.rpi.{t}.{t}", kind: 'f'},
	"llvm.trunc":      {op: "cvt.rzi.{t}.{t}", kind: 'f'},
	"llvm.rint":       {op: "cvt.rni.{t}.{t}", kind: 'f'},
	"llvm.nearbyint":  {op: "cvt.rni.{t}.{t}", kind: 'f'},
	"llvm.roundeven":  {op: "cvt.rni.{t}.{t}", kind: 'f'},
	"llvm.smax":       {op: "max.{t}", kind: 's'},
	"llvm.smin":       {op: "min.{t}", kind: 's'},
	"llvm.umax":       {op: "max.{t}", kind: 'u'},
	"llvm.umin":       {op: "min.{t}", kind: 'u'},
	"llvm.abs":        {op: "abs.{t}", kind: 's', args: []string{"$0"}},
	"llvm.ctpop":      {op: "popc.{t}", kind: 'b', res32: true},
	"llvm.ctlz":       {op: "clz.{t}", kind: 'b', args: []string{"$0"}, res32: true},
	"llvm.bitreverse": {op: "brev.{t}", kind: 'b'},
	"llvm.fshl":       {op: "shf.l.wrap.b32", args: []string{"$1", "$0", "$2"}},
	"llvm.fshr":       {op: "shf.r.wrap.b32", args: []string{"$1", "$0", "$2"}},
}

// The explicitly rounded adds and multiplies (libdevice's __nv_fadd_rn, __nv_dmul_rz, ...):
// llvm.nvvm.{add,mul}.{rn,rz,rm,rp}[.ftz].{f,d}. They are calls, so floating-point
// contraction never fuses them.
func init() {
	for _, op := range []string{"add", "mul"} {
		for _, rnd := range []string{"rn", "rz", "rm", "rp"} {
			name := "llvm.nvvm." + op + "." + rnd
			intrinsics[name+".f"] = intrinsic{op: op + "." + rnd + ".f32"}
			intrinsics[name+".ftz.f"] = intrinsic{op: op + "." + rnd + ".ftz.f32"}
			intrinsics[name+".d"] = intrinsic{op: op + "." + rnd + ".f64"}
		}
	}
}

// ignoredIntrinsics produce no code.
var ignoredIntrinsics = map[string]bool{
	"llvm.lifetime.start": true, "llvm.lifetime.end": true, "llvm.assume": true,
	"llvm.dbg.value": true, "llvm.dbg.declare": true, "llvm.dbg.label": true,
	"llvm.experimental.noalias.scope.decl": true, "llvm.donothing": true, "llvm.sideeffect": true,
}

// overload matches an intrinsic's type-mangling suffix.
var overload = regexp.MustCompile(`\.(i\d+|f16|f32|f64|bf16|v\d+\w+|p\d+\w*)$`)

// lookupIntrinsic finds the table entry for a callee name.
func lookupIntrinsic(name string) (intrinsic, bool, bool) {
	for {
		if in, ok := intrinsics[name]; ok {
			return in, true, false
		}
		if ignoredIntrinsics[name] {
			return intrinsic{}, false, true
		}
		loc := overload.FindStringIndex(name)
		if loc == nil {
			return intrinsic{}, false, false
		}
		name = name[:loc[0]]
	}
}

// funcName is fn.Name(), which parses the name each time, memoized.
func (c *compiler) funcName(fn *ir.Func) string {
	if n, ok := c.funcNames[fn]; ok {
		return n
	}
	n := fn.Name()
	if c.funcNames == nil {
		c.funcNames = map[*ir.Func]string{}
	}
	c.funcNames[fn] = n
	return n
}

// call selects an intrinsic call or an inline asm call.
func (e *fnEmitter) call(i *ir.InstCall) error {
	if asm, ok := i.Callee.(*ir.InlineAsm); ok {
		return e.inlineAsm(i, asm)
	}
	fn, ok := i.Callee.(*ir.Func)
	if !ok {
		return fmt.Errorf("indirect calls are not supported")
	}
	name := e.c.funcName(fn)
	if sreg, ok := strings.CutPrefix(name, "llvm.nvvm.read.ptx.sreg."); ok {
		rc, err := e.lay.classOf(i.Typ)
		if err != nil {
			return err
		}
		d := e.newReg(rc)
		e.emit("mov.u"+strconv.Itoa(rc.bits()), d, "%"+sreg)
		e.set(i, e.one(d))
		return nil
	}
	in, ok, ignored := lookupIntrinsic(name)
	if ignored {
		return nil
	}
	if !ok {
		if strings.HasPrefix(name, "llvm.") {
			return fmt.Errorf("intrinsic @%s is not supported", name)
		}
		if len(fn.Blocks) == 0 {
			return e.externCall(i, fn)
		}
		return fmt.Errorf("call to @%s: device function calls are not supported; inline the callee", name)
	}
	// ops[0] is room for the result register; the operands follow.
	ops := append(e.callOps[:0], "")
	defer func() { e.callOps = ops[:0] }()
	if in.args == nil {
		for _, a := range i.Args {
			op, err := e.getOne(a)
			if err != nil {
				return err
			}
			ops = append(ops, op)
		}
	} else {
		for _, a := range in.args {
			if a[0] != '$' {
				ops = append(ops, a)
				continue
			}
			n := int(a[1] - '0')
			if n >= len(i.Args) {
				return fmt.Errorf("@%s: too few arguments", name)
			}
			op, err := e.getOne(i.Args[n])
			if err != nil {
				return err
			}
			ops = append(ops, op)
		}
	}
	typ := i.Typ
	if types.Equal(typ, types.Void) && len(i.Args) > 0 {
		typ = i.Args[0].Type()
	}
	op := in.op
	if in.kind != 0 {
		rc, err := e.lay.classOf(typ)
		if err != nil {
			return err
		}
		suffix := floatNames[rc]
		if in.kind != 'f' {
			suffix = typeName(in.kind, rc.bits())
		}
		op = strings.ReplaceAll(op, "{t}", suffix)
	}
	if types.Equal(i.Typ, types.Void) {
		e.emit(op, ops[1:]...)
		return nil
	}
	rc, err := e.lay.classOf(i.Typ)
	if err != nil {
		return err
	}
	d := e.newReg(rc)
	if in.res32 && rc != rcB32 {
		t := e.newReg(rcB32)
		ops[0] = t
		e.emit(op, ops...)
		e.emit("cvt.u"+strconv.Itoa(rc.bits())+".u32", d, t)
	} else {
		ops[0] = d
		e.emit(op, ops...)
	}
	e.set(i, e.one(d))
	return nil
}

// externCall calls a function declared by the module (compiler.extern) with the PTX
// calling sequence: arguments and result in .param variables scoped to a block.
func (e *fnEmitter) externCall(i *ir.InstCall, fn *ir.Func) error {
	e.ncall++
	e.w.WriteString("\t{ // callseq " + strconv.Itoa(e.ncall) + "\n")
	var params []string
	for k, a := range i.Args {
		bits, err := e.lay.callBits(a.Type())
		if err != nil {
			return fmt.Errorf("call to @%s: argument %d: %v", fn.Name(), k, err)
		}
		op, err := e.getOne(a)
		if err != nil {
			return err
		}
		p := "param" + strconv.Itoa(k)
		b := strconv.Itoa(bits)
		e.w.WriteString("\t.param .b" + b + " " + p + ";\n")
		e.emit("st.param.b"+b, "["+p+"]", op)
		params = append(params, p)
	}
	call := "call.uni " + symbol(fn.Name()) + ", (" + strings.Join(params, ", ") + ")"
	var ret string
	var rc regClass
	if !types.Equal(i.Typ, types.Void) {
		bits, err := e.lay.callBits(i.Typ)
		if err != nil {
			return fmt.Errorf("call to @%s: result: %v", fn.Name(), err)
		}
		if rc, err = e.lay.classOf(i.Typ); err != nil {
			return err
		}
		ret = ".b" + strconv.Itoa(bits)
		e.w.WriteString("\t.param " + ret + " retval0;\n")
		call = "call.uni (retval0), " + symbol(fn.Name()) + ", (" + strings.Join(params, ", ") + ")"
	}
	e.w.WriteString("\t" + call + ";\n")
	if ret != "" {
		d := e.newReg(rc)
		e.emit("ld.param"+ret, d, "[retval0]")
		e.set(i, e.one(d))
	}
	e.w.WriteString("\t}\n")
	return nil
}
