package ptx

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// fnEmitter writes the body of one kernel.
type fnEmitter struct {
	c      *compiler
	lay    *layout
	f      *ir.Func
	idx    int      // kernel index, used in label names
	body   textBuf  // the blocks
	pre    textBuf  // prologue: parameter loads and materialized constants
	w      *textBuf // where emit writes: body or pre
	s      *scratch // the buffers above, from scratchPool
	nreg   [numRegClasses]int
	vals   []value.Value         // each parameter and instruction with a result, by number
	saved  []savedID             // their local IDs before number replaced them
	nums   map[value.Value]int32 // number of each, when their local IDs are not used
	info   []valInfo             // what is known of each, by number
	labels map[*ir.Block]string
	order  []*ir.Block // layout: reverse postorder
	next   *ir.Block   // block laid out after the one being emitted
	cur    *ir.Block   // the block being emitted
	nlabel int
	ncall  int // extern calls so far (callseq numbers)

	depot      int64  // bytes of the local depot (allocas)
	depotAlign int64  // its alignment
	depotSP    string // generic address of the depot, once an alloca needs it
	loc        srcLoc // last .loc written

	globals    map[*ir.Global]string          // address register of each global used
	immRegs    map[immKey]string              // register holding each immediate moved into one
	constOps   map[constant.Constant][]string // operands of materialized constant expressions
	leafCache  map[leafKey][]types.Type       // see (*fnEmitter).leaves: the keys after the first len(leafArr)
	leafList   []leafEntry                    // the first keys of leaves, in leafArr
	leafArr    [16]leafEntry
	classCache map[leafKey][]regClass // see (*fnEmitter).classesOf

	scaled        map[scaledKey]string   // base+index*stride registers of the current block
	negs          map[string]string      // negations of registers that fma operands took in the current block
	materializing value.Value            // the deferred value being selected for one use
	names         []byte                 // backing store of register names (newReg)
	opChunk       []string               // backing store of operand lists (opSlice)
	typeChunk     []types.Type           // backing store of the leaves of scalars not cached (leaves)
	asmOuts       []string               // scratch of inlineAsm: outputs,
	asmOutRCs     []regClass             // their classes,
	asmIns        []string               // inputs
	fieldUses     map[fieldKey]int32     // extractvalues of each struct field (countUses)
	phiUses       map[*ir.InstPhi]phiUse // where each phi is used, once a tied operand asks (phiDiesAt)
	asmOps        []string               // and both
	readers       map[string]int32       // scratch of copies: pending moves reading each register
	locLine       []byte                 // scratch of setLoc
	offs          []int64                // scratch of plan: leaf offsets of the access being selected
	parts         []string               // scratch of repack
	callOps       []string               // scratch of call
	usedNames     [][]byte               // chunks of names taken from scratch
	usedOps       [][]string             // chunks of opChunk taken from scratch
	moves         []move                 // scratch of copies
	lastDI        *metadata.DILocation   // the !dbg setLoc saw last
	classLast     struct {               // the last hit of classesOf
		k   leafKey
		rcs []regClass
		ok  bool
	}
	leafLast struct { // the last hit of leaves
		k  leafKey
		ls []types.Type
		ok bool
	}
}

// kernel writes the .entry for f.
//
// While it runs, the local ID of each parameter and instruction of f holds its number plus
// one, so that finding what is known of an operand needs no map lookup; the IDs are put
// back before it returns. Error messages name values by their IDs: on an error the kernel
// is emitted again, with the IDs untouched and numbers in a map, for the message.
func (c *compiler) kernel(f *ir.Func, idx int, ki *kernelInfo) error {
	err := c.kernelWith(f, idx, ki, true)
	if err != nil {
		err = c.kernelWith(f, idx, ki, false)
	}
	return err
}

func (c *compiler) kernelWith(f *ir.Func, idx int, ki *kernelInfo, byID bool) error {
	e := &fnEmitter{c: c, lay: c.lay, f: f, idx: idx, labels: make(map[*ir.Block]string, len(f.Blocks))}
	e.s = getScratch()
	defer e.putScratch()
	e.body.b, e.pre.b = e.s.body[:0], e.s.pre[:0]
	e.w = &e.pre
	if byID {
		e.number()
		defer e.restoreIDs()
	} else {
		e.numberMap()
	}
	e.scaled = map[scaledKey]string{}
	e.readers = map[string]int32{}
	e.countUses()
	if c.opts.FPFusion {
		e.planFusions()
	}
	name := symbol(f.Name())
	var params []string
	for i, p := range f.Params {
		decl, err := e.param(p, name+"_param_"+strconv.Itoa(i))
		if err != nil {
			return fmt.Errorf("parameter %d: %v", i, err)
		}
		params = append(params, decl)
	}
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Insts) + 1
	}
	if cap(e.body.b) < 48*n {
		e.body.b = make([]byte, 0, 48*n) // about one line of 48 bytes per instruction
	}
	e.w = &e.body
	if err := e.blocks(); err != nil {
		return err
	}

	o := &c.out
	o.Grow(e.pre.Len() + e.body.Len() + 1024)
	fmt.Fprintf(o, ".visible .entry %s(\n%s\n)\n", name, strings.Join(params, ",\n"))
	if d := dims3(ki.reqntid, ki.reqntidAnn); d != "" {
		fmt.Fprintf(o, ".reqntid %s\n", d)
	}
	if d := dims3(ki.maxntid, ki.maxntidAnn); d != "" {
		fmt.Fprintf(o, ".maxntid %s\n", d)
	}
	if ki.minctasm > 0 {
		fmt.Fprintf(o, ".minnctapersm %d\n", ki.minctasm)
	}
	if ki.maxnreg > 0 {
		fmt.Fprintf(o, ".maxnreg %d\n", ki.maxnreg)
	}
	o.WriteString("{\n")
	if e.depot > 0 {
		fmt.Fprintf(o, "\t.local .align %d .b8 \t%s[%d];\n", e.depotAlign, e.depotName(), e.depot)
	}
	for rc := regClass(0); rc < numRegClasses; rc++ {
		if n := e.nreg[rc]; n > 0 {
			fmt.Fprintf(o, "\t.reg %s \t%s<%d>;\n", regClassInfo[rc].decl, regClassInfo[rc].prefix, n+1)
		}
	}
	o.WriteString("\n")
	o.Write(e.pre.b)
	o.Write(e.body.b)
	o.WriteString("}\n")
	return nil
}

// textBuf is an append-only text buffer, as strings.Builder, whose memory
// can be reused.
type textBuf struct{ b []byte }

func (t *textBuf) WriteString(s string) { t.b = append(t.b, s...) }
func (t *textBuf) Len() int             { return len(t.b) }

// WriteByte appends c; it never fails (io.ByteWriter).
func (t *textBuf) WriteByte(c byte) error {
	t.b = append(t.b, c)
	return nil
}

// Write appends p; it never fails (io.Writer, for fmt.Fprintf).
func (t *textBuf) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	return len(p), nil
}

// scratch is memory a kernel's emission needs only while it runs, kept in
// scratchPool for the next kernel instead of allocated afresh.
type scratch struct {
	body, pre []byte
	names     [][]byte   // chunks of e.names
	ops       [][]string // chunks of e.opChunk, cleared
	info      []valInfo
	vals      []value.Value
	saved     []savedID
}

var scratchPool sync.Pool

// spareScratch keeps one scratch of at most maxSpare bytes across garbage
// collections, which empty scratchPool: when Compile runs after a front end
// and lowering that allocate much, the pool is often empty by then.
var spareScratch atomic.Pointer[scratch]

const maxSpare = 8 << 20

func getScratch() *scratch {
	if s := spareScratch.Swap(nil); s != nil {
		return s
	}
	if s, ok := scratchPool.Get().(*scratch); ok {
		return s
	}
	return &scratch{}
}

// size is about how many bytes s holds.
func (s *scratch) size() int {
	n := cap(s.body) + cap(s.pre) + cap(s.info)*int(unsafe.Sizeof(valInfo{})) +
		cap(s.vals)*16 + cap(s.saved)*int(unsafe.Sizeof(savedID{}))
	for _, c := range s.names {
		n += cap(c)
	}
	for _, c := range s.ops {
		n += cap(c) * 16
	}
	return n
}

// putScratch gives e's scratch memory back to scratchPool, cleared of
// pointers into the module and the emitted text.
func (e *fnEmitter) putScratch() {
	s := e.s
	s.body, s.pre = e.body.b[:0], e.pre.b[:0]
	if cap(e.info) > 0 {
		clear(e.info)
		s.info = e.info[:0]
	}
	if cap(e.vals) > 0 {
		clear(e.vals)
		s.vals = e.vals[:0]
	}
	if cap(e.saved) > 0 {
		clear(e.saved)
		s.saved = e.saved[:0]
	}
	for _, c := range e.usedNames {
		s.names = append(s.names, c[:0])
	}
	for _, c := range e.usedOps {
		clear(c[:cap(c)])
		s.ops = append(s.ops, c[:0])
	}
	e.s = nil
	if s.size() > maxSpare || !spareScratch.CompareAndSwap(nil, s) {
		scratchPool.Put(s)
	}
}

// valInfo is what the emitter knows of one parameter or instruction.
type valInfo struct {
	ops     []string // its operands, one per leaf, once defined
	defined bool
	folded  bool // it is a folded address, addr
	addr    addr
	uses    useCount // see countUses

	fused    *fusion // an fadd or fsub written as fma.rn (see contract.go)
	block    int32   // the block of an fmul or fneg, its index plus one, once planFusions ran
	absorbed bool    // an fmul or fneg whose every use was fused: not emitted
	tied     bool    // an fmul that is the input of a tied inline asm operand (noteTiedInputs)
}

// localID is a value with a local ID (%7), as parameters and instructions with a result
// have.
type localID interface {
	ID() int64
	SetID(id int64)
}

// number numbers the parameters and instructions of the kernel, so that
// what is known of each lives in one slice, and stores each number plus one
// in the value's local ID (restoreIDs puts the IDs back). Values without a
// local ID, if any, are numbered in e.nums.
func (e *fnEmitter) number() {
	n := len(e.f.Params)
	for _, b := range e.f.Blocks {
		n += len(b.Insts)
	}
	e.vals = grow(e.s.vals, n)
	e.saved = grow(e.s.saved, n)
	add := func(v value.Value) {
		if l, ok := v.(localID); ok {
			e.saved = append(e.saved, savedID{l, l.ID()})
			l.SetID(int64(len(e.vals) + 1))
		} else {
			if e.nums == nil {
				e.nums = map[value.Value]int32{}
			}
			e.nums[v] = int32(len(e.vals))
			e.saved = append(e.saved, savedID{})
		}
		e.vals = append(e.vals, v)
	}
	for _, p := range e.f.Params {
		add(p)
	}
	for _, b := range e.f.Blocks {
		for _, inst := range b.Insts {
			if v, ok := inst.(value.Value); ok {
				add(v)
			}
		}
	}
	e.info = grow(e.s.info, len(e.vals))[:len(e.vals)]
}

// grow returns s emptied, with room for n elements.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// savedID is a value's local ID as number found it.
type savedID struct {
	l  localID // nil for a value without one
	id int64
}

// restoreIDs puts back the local IDs that number replaced.
func (e *fnEmitter) restoreIDs() {
	for _, s := range e.saved {
		if s.l != nil {
			s.l.SetID(s.id)
		}
	}
}

// numberMap numbers the parameters and instructions of the kernel in
// e.nums, leaving their local IDs untouched.
func (e *fnEmitter) numberMap() {
	n := len(e.f.Params)
	for _, b := range e.f.Blocks {
		n += len(b.Insts)
	}
	e.nums = make(map[value.Value]int32, n)
	for _, p := range e.f.Params {
		e.nums[p] = int32(len(e.nums))
	}
	for _, b := range e.f.Blocks {
		for _, inst := range b.Insts {
			if v, ok := inst.(value.Value); ok {
				e.nums[v] = int32(len(e.nums))
			}
		}
	}
	e.info = make([]valInfo, len(e.nums))
}

// infoOf returns what is known of v, or nil when v is not a parameter or
// an instruction of the kernel.
func (e *fnEmitter) infoOf(v value.Value) *valInfo {
	if e.vals != nil {
		if l, ok := v.(localID); ok {
			if id := l.ID(); id > 0 && id <= int64(len(e.vals)) && sameValue(e.vals[id-1], v) {
				return &e.info[id-1]
			}
		}
		if e.nums == nil {
			return nil
		}
	}
	if n, ok := e.nums[v]; ok {
		return &e.info[n]
	}
	return nil
}

// sameValue is a == b for a parameter or instruction a (a pointer, as every
// value with a local ID is), comparing the interfaces' words without a call
// of the runtime's ifaceeq.
func sameValue(a, b value.Value) bool {
	pa, pb := (*[2]unsafe.Pointer)(unsafe.Pointer(&a)), (*[2]unsafe.Pointer)(unsafe.Pointer(&b))
	return pa[1] == pb[1] && pa[0] == pb[0]
}

// set records the operands of v, a parameter or instruction.
func (e *fnEmitter) set(v value.Value, ops []string) {
	in := e.infoOf(v)
	in.ops, in.defined = ops, true
}

// paramTypes is the .param type of each register class.
var paramTypes = [numRegClasses]string{
	rcPred: ".u8", rcB16: ".u16", rcF16: ".b16", rcB32: ".u32", rcF32: ".f32", rcB64: ".u64", rcF64: ".f64",
}

// param loads kernel parameter p, named name, into registers at the top of
// the body and returns its declaration ("\t.param .u32 k_param_0").
func (e *fnEmitter) param(p *ir.Param, name string) (string, error) {
	if by := byvalType(p); by != nil {
		return e.byvalParam(p, by, name)
	}
	rc, err := e.lay.classOf(p.Typ)
	if err != nil {
		return "", err
	}
	typ := paramTypes[rc]
	if intBits(p.Typ) == 8 {
		typ = ".u8"
	}
	decl := typ
	if pt, ok := p.Typ.(*types.PointerType); ok && pt.AddrSpace == 1 && rc == rcB64 {
		align := 1
		for _, a := range p.Attrs {
			if al, ok := a.(ir.Align); ok {
				align = int(al)
			}
		}
		decl = ".u64 .ptr .global .align " + strconv.Itoa(align)
	}
	switch rc {
	case rcPred:
		t := e.newReg(rcB16)
		e.emit("ld.param.u8", t, "["+name+"]")
		d := e.newReg(rcPred)
		e.emit("setp.ne.b16", d, t, "0")
		e.set(p, e.one(d))
	default:
		d := e.newReg(rc)
		e.emit("ld.param"+typ, d, "["+name+"]")
		e.set(p, e.one(d))
	}
	return "\t.param " + decl + " " + name, nil
}

// byvalType returns the type passed by value through parameter p (its byval
// attribute's type, or else the pointee), or nil when p is not byval.
func byvalType(p *ir.Param) types.Type {
	for _, a := range p.Attrs {
		if by, ok := a.(ir.Byval); ok {
			if by.Typ != nil {
				return by.Typ
			}
			if pt, ok := p.Typ.(*types.PointerType); ok {
				return pt.ElemType
			}
		}
	}
	return nil
}

// minByvalPTX is the PTX ISA version (times ten) that brought cvta.param.
const minByvalPTX = 77

// byvalParam declares a parameter passed by value ("byval" with
// "nvvm.grid_constant", such as Triton's 128-byte CUtensorMap) as a .param
// byte array, sized by the byval type and aligned by the align attribute
// (else the type's alignment). The parameter's value, a generic pointer to
// that read-only array, is computed once in the prologue with cvta.param;
// loads through it are generic loads. Without "nvvm.grid_constant" LLVM
// gives the kernel a private, writable copy, which is not supported.
func (e *fnEmitter) byvalParam(p *ir.Param, by types.Type, name string) (string, error) {
	pt, ok := p.Typ.(*types.PointerType)
	if !ok || pt.AddrSpace != 0 || e.lay.pointerBits(0) != 64 {
		return "", fmt.Errorf("byval parameter of type %s is not supported (want a 64-bit generic pointer)", p.Typ)
	}
	size, align, err := e.lay.sizeAlign(by)
	if err != nil {
		return "", err
	}
	grid := false
	for _, a := range p.Attrs {
		switch a := a.(type) {
		case ir.Align:
			align = int64(a)
		case ir.AttrString:
			grid = grid || a == "nvvm.grid_constant"
		}
	}
	if !grid {
		return "", fmt.Errorf("byval parameter without \"nvvm.grid_constant\" is not supported (it would need a writable local copy)")
	}
	if v := e.c.opts.PTXVersion; v < minByvalPTX {
		return "", fmt.Errorf("byval parameters need PTX ISA %d.%d or later (cvta.param), not %d.%d", minByvalPTX/10, minByvalPTX%10, v/10, v%10)
	}
	a := e.newReg(rcB64)
	e.emit("mov.b64", a, name)
	d := e.newReg(rcB64)
	e.emit("cvta.param.u64", d, a)
	e.set(p, e.one(d))
	return "\t.param .align " + strconv.FormatInt(align, 10) + " .b8 " + name + "[" + strconv.FormatInt(size, 10) + "]", nil
}

// newReg allocates a fresh virtual register.
func (e *fnEmitter) newReg(rc regClass) string {
	e.nreg[rc]++
	// Register names are carved out of a shared byte chunk, which is only ever appended
	// to (a full chunk is replaced, never reused), instead of one allocation per name.
	const maxName = 24
	if cap(e.names)-len(e.names) < maxName {
		e.names = e.newNames(maxName)
	}
	start := len(e.names)
	e.names = append(e.names, regClassInfo[rc].prefix...)
	e.names = appendInt(e.names, int64(e.nreg[rc]))
	return unsafe.String(&e.names[start], len(e.names)-start)
}

// appendInt is strconv.AppendInt(b, x, 10), writing the digits of a
// non-negative x in place when b has room for them.
func appendInt(b []byte, x int64) []byte {
	d := 1
	for t := x; t >= 10; t /= 10 {
		d++
	}
	n := len(b) + d
	if x < 0 || n > cap(b) {
		return strconv.AppendInt(b, x, 10)
	}
	b = b[:n]
	for i := n - 1; x >= 10; i-- {
		b[i] = byte('0' + x%10)
		x /= 10
	}
	b[n-d] = byte('0' + x)
	return b
}

// newNames returns an empty chunk for e.names with room for n bytes: a
// pooled one when n fits, else a new one. Chunks go back to the pool when
// the kernel is written, as nothing refers to them any more.
func (e *fnEmitter) newNames(n int) []byte {
	const size = 16 << 10
	if n > size {
		return make([]byte, 0, n)
	}
	var c []byte
	if k := len(e.s.names); k > 0 {
		c, e.s.names = e.s.names[k-1], e.s.names[:k-1]
	} else {
		c = make([]byte, 0, size)
	}
	e.usedNames = append(e.usedNames, c)
	return c
}

// newOpChunk returns an empty chunk for e.opChunk, pooled as newNames'.
func (e *fnEmitter) newOpChunk() []string {
	var c []string
	if k := len(e.s.ops); k > 0 {
		c, e.s.ops = e.s.ops[k-1], e.s.ops[:k-1]
	} else {
		c = make([]string, 0, 4096)
	}
	e.usedOps = append(e.usedOps, c)
	return c
}

// strStart makes room for a string of about n bytes at the end of e.names
// and returns where it starts; the caller appends its bytes to e.names and
// calls strEnd. Strings carved out of e.names this way live as long as
// register names: the chunk is only appended to (a longer string than
// reserved moves the chunk, which leaves earlier strings where they are).
func (e *fnEmitter) strStart(n int) int {
	if cap(e.names)-len(e.names) < n {
		e.names = e.newNames(n)
	}
	return len(e.names)
}

// strEnd returns the string appended to e.names since start.
func (e *fnEmitter) strEnd(start int) string {
	if start == len(e.names) {
		return ""
	}
	return unsafe.String(&e.names[start], len(e.names)-start)
}

// joinOps returns open + ops joined by ", " + close, carved out of e.names.
func (e *fnEmitter) joinOps(open string, ops []string, close string) string {
	n := len(open) + len(close)
	for _, op := range ops {
		n += len(op) + 2
	}
	start := e.strStart(n)
	e.names = append(e.names, open...)
	for i, op := range ops {
		if i > 0 {
			e.names = append(e.names, ", "...)
		}
		e.names = append(e.names, op...)
	}
	e.names = append(e.names, close...)
	return e.strEnd(start)
}

// opSlice returns an empty operand list of length n, carved out of a shared
// chunk (capped, so appending to it never overwrites a neighbour) instead of
// one allocation per value.
func (e *fnEmitter) opSlice(n int) []string {
	if n > 64 {
		return make([]string, n)
	}
	if cap(e.opChunk)-len(e.opChunk) < n {
		e.opChunk = e.newOpChunk()
	}
	start := len(e.opChunk)
	e.opChunk = e.opChunk[:start+n]
	return e.opChunk[start : start+n : start+n]
}

// one returns the operand list of a scalar value.
func (e *fnEmitter) one(op string) []string {
	s := e.opSlice(1)
	s[0] = op
	return s
}

// newRegs allocates one register per class.
func (e *fnEmitter) newRegs(rcs []regClass) []string {
	out := e.opSlice(len(rcs))
	for i, rc := range rcs {
		out[i] = e.newReg(rc)
	}
	return out
}

// emit writes one instruction: op followed by its operands.
func (e *fnEmitter) emit(op string, args ...string) {
	w := e.w
	w.WriteByte('\t')
	w.WriteString(op)
	for i, a := range args {
		if i == 0 {
			w.WriteString(" \t")
		} else {
			w.WriteString(", ")
		}
		w.WriteString(a)
	}
	w.WriteString(";\n")
}

// emitOp is emit with the opcode op1+op2+op3+op4+op5.
func (e *fnEmitter) emitOp(op1, op2, op3, op4, op5 string, args ...string) {
	w := e.w
	w.b = append(w.b, '\t')
	w.b = append(w.b, op1...)
	w.b = append(w.b, op2...)
	w.b = append(w.b, op3...)
	w.b = append(w.b, op4...)
	w.b = append(w.b, op5...)
	for i, a := range args {
		if i == 0 {
			w.b = append(w.b, " \t"...)
		} else {
			w.b = append(w.b, ", "...)
		}
		w.b = append(w.b, a...)
	}
	w.b = append(w.b, ";\n"...)
}

// inPrologue runs emit calls of f into the prologue, which runs first in the
// entry block and so dominates every use: constants materialized there are
// computed once per kernel.
func (e *fnEmitter) inPrologue(f func()) {
	saved := e.w
	e.w = &e.pre
	f()
	e.w = saved
}

// label writes a label definition.
func (e *fnEmitter) label(l string) {
	e.w.WriteString(l)
	e.w.WriteString(":\n")
}

func (e *fnEmitter) newLabel() string {
	l := "$L__BB" + strconv.Itoa(e.idx) + "_" + strconv.Itoa(e.nlabel)
	e.nlabel++
	return l
}

// successors returns the successors of a terminator.
func successors(t ir.Terminator) ([]*ir.Block, error) {
	switch t := t.(type) {
	case nil:
		return nil, fmt.Errorf("a block has no terminator")
	case *ir.TermRet, *ir.TermUnreachable:
		return nil, nil
	case *ir.TermBr:
		return []*ir.Block{t.Target.(*ir.Block)}, nil
	case *ir.TermCondBr:
		return []*ir.Block{t.TargetTrue.(*ir.Block), t.TargetFalse.(*ir.Block)}, nil
	case *ir.TermSwitch:
		out := []*ir.Block{t.TargetDefault.(*ir.Block)}
		for _, c := range t.Cases {
			out = append(out, c.Target.(*ir.Block))
		}
		return out, nil
	}
	return nil, fmt.Errorf("terminator %q is not supported", strings.TrimSpace(t.LLString()))
}

// blocks lays the blocks out in reverse postorder, so that every value is
// defined before its uses, and emits them.
func (e *fnEmitter) blocks() error {
	seen := map[*ir.Block]bool{}
	var post []*ir.Block
	var visit func(b *ir.Block) error
	visit = func(b *ir.Block) error {
		seen[b] = true
		succ, err := successors(b.Term)
		if err != nil {
			return err
		}
		for i := len(succ) - 1; i >= 0; i-- { // keeps the true/first successor first
			if !seen[succ[i]] {
				if err := visit(succ[i]); err != nil {
					return err
				}
			}
		}
		post = append(post, b)
		return nil
	}
	if err := visit(e.f.Blocks[0]); err != nil {
		return err
	}
	for i := len(post) - 1; i >= 0; i-- {
		e.order = append(e.order, post[i])
	}
	for _, b := range e.order {
		e.labels[b] = e.newLabel()
		for _, inst := range b.Insts {
			if phi, ok := inst.(*ir.InstPhi); ok {
				rcs, err := e.classesOf(phi.Typ)
				if err != nil {
					return fmt.Errorf("%s: %v", strings.TrimSpace(phi.LLString()), err)
				}
				e.set(phi, e.newRegs(rcs))
			}
		}
	}
	for i, b := range e.order {
		e.cur, e.next = b, nil
		if i+1 < len(e.order) {
			e.next = e.order[i+1]
		}
		if i > 0 {
			e.label(e.labels[b])
		}
		clear(e.scaled)
		clear(e.negs)
		locs := e.c.blockLocs(b)
		for j, inst := range b.Insts {
			if _, ok := inst.(*ir.InstPhi); ok {
				continue
			}
			e.setLoc(locs[j])
			e.c.curInst, e.c.curLoc = inst, locs[j]
			if err := e.inst(inst); err != nil {
				return fmt.Errorf("%s: %v", strings.TrimSpace(inst.LLString()), err)
			}
		}
		e.setLoc(locs[len(b.Insts)])
		e.c.curInst, e.c.curLoc = b.Term, locs[len(b.Insts)]
		if err := e.term(b); err != nil {
			return fmt.Errorf("%s: %v", strings.TrimSpace(b.Term.LLString()), err)
		}
	}
	e.c.curInst, e.c.curLoc = nil, nil
	return nil
}

// term emits a terminator. Phi copies of an edge run at the end of the
// predecessor; a conditional edge that needs copies goes through its own
// label, so that copies never run on the other edge.
func (e *fnEmitter) term(b *ir.Block) error {
	switch t := b.Term.(type) {
	case *ir.TermRet:
		if t.X != nil {
			return fmt.Errorf("kernels must return void")
		}
		e.emit("ret")
	case *ir.TermUnreachable:
		e.emit("trap")
	case *ir.TermBr:
		return e.jump(b, t.Target.(*ir.Block))
	case *ir.TermCondBr:
		p, err := e.get(t.Cond)
		if err != nil {
			return err
		}
		return e.branches(b, []string{p[0]}, []*ir.Block{t.TargetTrue.(*ir.Block)}, t.TargetFalse.(*ir.Block))
	case *ir.TermSwitch:
		x, err := e.get(t.X)
		if err != nil {
			return err
		}
		rc, err := e.lay.classOf(t.X.Type())
		if err != nil || rc == rcPred {
			return fmt.Errorf("switch on %s is not supported", t.X.Type())
		}
		var conds []string
		var targets []*ir.Block
		for _, c := range t.Cases {
			k, err := e.get(c.X)
			if err != nil {
				return err
			}
			p := e.newReg(rcPred)
			e.emit("setp.eq.b"+strconv.Itoa(rc.bits()), p, x[0], k[0])
			conds = append(conds, p)
			targets = append(targets, c.Target.(*ir.Block))
		}
		return e.branches(b, conds, targets, t.TargetDefault.(*ir.Block))
	}
	return nil
}

// branches emits "if conds[i] goto targets[i]" in order, then falls to def.
func (e *fnEmitter) branches(b *ir.Block, conds []string, targets []*ir.Block, def *ir.Block) error {
	if len(conds) == 1 && !e.hasCopies(b, targets[0]) && !e.hasCopies(b, def) && targets[0] == e.next {
		e.emit("@!"+conds[0]+" bra", e.labels[def])
		return nil
	}
	type tramp struct {
		label string
		to    *ir.Block
	}
	var tramps []tramp
	for i, p := range conds {
		l := e.labels[targets[i]]
		if e.hasCopies(b, targets[i]) {
			l = e.newLabel()
			tramps = append(tramps, tramp{l, targets[i]})
		}
		e.emit("@"+p+" bra", l)
	}
	if err := e.copies(b, def); err != nil {
		return err
	}
	if def != e.next || len(tramps) > 0 {
		e.emit("bra.uni", e.labels[def])
	}
	for i, t := range tramps {
		e.label(t.label)
		if err := e.copies(b, t.to); err != nil {
			return err
		}
		if t.to != e.next || i+1 < len(tramps) {
			e.emit("bra.uni", e.labels[t.to])
		}
	}
	return nil
}

// jump emits the copies of edge b->to and an unconditional branch.
func (e *fnEmitter) jump(b, to *ir.Block) error {
	if err := e.copies(b, to); err != nil {
		return err
	}
	if to != e.next {
		e.emit("bra.uni", e.labels[to])
	}
	return nil
}

// hasCopies reports whether the edge b->to carries phi values.
func (e *fnEmitter) hasCopies(b, to *ir.Block) bool {
	for _, inst := range to.Insts {
		if _, ok := inst.(*ir.InstPhi); ok {
			return true
		}
	}
	return false
}

// move is one copy of a phi's operand.
type move struct {
	dst, src string
	rc       regClass
}

// copies emits the phi moves of edge b->to as one parallel copy.
func (e *fnEmitter) copies(b, to *ir.Block) error {
	moves := e.moves[:0]
	defer func() { e.moves = moves[:0] }()
	for _, inst := range to.Insts {
		phi, ok := inst.(*ir.InstPhi)
		if !ok {
			continue
		}
		var inc *ir.Incoming
		for _, in := range phi.Incs {
			if in.Pred.(*ir.Block) == b {
				inc = in
				break
			}
		}
		if inc == nil {
			return fmt.Errorf("phi %s has no value for predecessor %s", phi.Ident(), b.Ident())
		}
		src, err := e.get(inc.X)
		if err != nil {
			return err
		}
		rcs, _ := e.classesOf(phi.Typ)
		for i, d := range e.infoOf(phi).ops {
			if d != src[i] {
				moves = append(moves, move{d, src[i], rcs[i]})
			}
		}
	}
	// Sequentialize: emit a move whose destination no pending move reads;
	// when only cycles remain, save one destination in a temporary. Each pass
	// goes through the pending moves in order.
	readers := e.readers
	clear(readers)
	for _, m := range moves {
		readers[m.src]++
	}
	for len(moves) > 0 {
		pending := moves[:0]
		for _, m := range moves {
			if readers[m.dst] > 0 {
				pending = append(pending, m)
				continue
			}
			e.emitOp("mov.", m.rc.movType(), "", "", "", m.dst, m.src)
			readers[m.src]--
		}
		if len(pending) == len(moves) {
			m := pending[0]
			t := e.newReg(m.rc)
			e.emitOp("mov.", m.rc.movType(), "", "", "", t, m.dst)
			for j := range pending {
				if pending[j].src == m.dst {
					pending[j].src = t
				}
			}
			readers[t], readers[m.dst] = readers[m.dst], 0
		}
		moves = pending
	}
	return nil
}

// srcLoc is a source position: a .file index, a line and a column.
type srcLoc struct{ file, line, col int64 }

// setLoc writes a .loc line when an instruction's debug location, di (as
// blockLocs found it), differs from the last one written.
func (e *fnEmitter) setLoc(di *metadata.DILocation) {
	// Instructions of one source op share one DILocation: skip the lookups when the
	// instruction has the same one as the instruction before.
	if di == nil {
		return
	}
	if di == e.lastDI {
		return
	}
	e.lastDI = di
	file, line, col := scopeFile(di.Scope), di.Line, di.Column
	if file == nil {
		return
	}
	l := srcLoc{int64(e.c.fileIndex(file)), line, col}
	if l != e.loc {
		b := append(e.locLine[:0], "\t.loc\t"...)
		b = appendInt(b, l.file)
		b = append(b, ' ')
		b = appendInt(b, l.line)
		b = append(b, ' ')
		b = appendInt(b, l.col)
		e.locLine = append(b, '\n')
		e.body.Write(e.locLine)
		e.loc = l
	}
}

// dbgLocation returns an instruction's !dbg location, or nil.
func dbgLocation(v interface{}) *metadata.DILocation {
	if md, ok := v.(interface {
		MDAttachments() []*metadata.Attachment
	}); ok {
		for _, a := range md.MDAttachments() {
			if loc, ok := a.Node.(*metadata.DILocation); ok && a.Name == "dbg" {
				return loc
			}
		}
	}
	return nil
}

// fileIndex numbers source files in order of first appearance; DIFiles
// that name the same path share a number.
func (c *compiler) fileIndex(f *metadata.DIFile) int {
	if n, ok := c.fileNums[f]; ok {
		return n
	}
	p := f.Filename
	if f.Directory != "" && !path.IsAbs(p) {
		p = path.Join(f.Directory, p)
	}
	n, ok := c.files[p]
	if !ok {
		n = len(c.files) + 1
		c.files[p] = n
	}
	c.fileNums[f] = n
	return n
}

// scopeFile finds the DIFile of a debug scope.
func scopeFile(s metadata.Field) *metadata.DIFile {
	for range 64 { // scope chains are short; the bound guards against cycles
		switch t := s.(type) {
		case *metadata.DISubprogram:
			return t.File
		case *metadata.DILexicalBlock:
			if t.File != nil {
				return t.File
			}
			s = t.Scope
		case *metadata.DILexicalBlockFile:
			if t.File != nil {
				return t.File
			}
			s = t.Scope
		case *metadata.DIFile:
			return t
		default:
			return nil
		}
	}
	return nil
}

// collectFiles numbers the source files named by debug locations, in
// order of first appearance, so that .file lines can precede the kernels.
// It keeps each instruction's location for blockLocs, so that emission does
// not look the locations up again.
func (c *compiler) collectFiles(fs []*ir.Func) {
	n, nb := 0, 0
	for _, f := range fs {
		for _, b := range f.Blocks {
			n += len(b.Insts) + 1
		}
		nb += len(f.Blocks)
	}
	lb := spareLocs.Swap(nil)
	if lb == nil {
		lb, _ = locsPool.Get().(*locBuf)
	}
	if lb == nil {
		lb = &locBuf{start: make(map[*ir.Block]int, nb)}
	}
	if cap(lb.locs) < n {
		lb.locs = make([]*metadata.DILocation, 0, n)
	}
	c.lb = lb
	c.locStart = lb.start
	locs := lb.locs[:0]
	var last *metadata.DILocation // instructions of one source op share one location
	note := func(v interface{}) {
		di := dbgLocation(v)
		locs = append(locs, di)
		if di != nil && di != last {
			last = di
			if file := scopeFile(di.Scope); file != nil {
				c.fileIndex(file)
			}
		}
	}
	for _, f := range fs {
		for _, b := range f.Blocks {
			c.locStart[b] = len(locs)
			for _, inst := range b.Insts {
				note(inst)
			}
			note(b.Term)
		}
	}
	c.locs = locs
}

// locBuf is the memory of compiler.locs and compiler.locStart, kept in
// locsPool for the next Compile.
type locBuf struct {
	locs  []*metadata.DILocation
	start map[*ir.Block]int
}

var locsPool sync.Pool

// spareLocs keeps one locBuf (up to maxSpareLocs locations) across garbage
// collections, as spareScratch does.
var spareLocs atomic.Pointer[locBuf]

const maxSpareLocs = 1 << 20

// putLocs gives c's locBuf back to locsPool, cleared of pointers into the
// module.
func (c *compiler) putLocs() {
	lb := c.lb
	if lb == nil {
		return
	}
	clear(c.locs)
	clear(lb.start)
	lb.locs = c.locs[:0]
	c.lb, c.locs, c.locStart = nil, nil, nil
	if cap(lb.locs) > maxSpareLocs || !spareLocs.CompareAndSwap(nil, lb) {
		locsPool.Put(lb)
	}
}

// blockLocs returns the debug location (or nil) of each instruction of b, as
// collectFiles found them, and of its terminator last.
func (c *compiler) blockLocs(b *ir.Block) []*metadata.DILocation {
	if i, ok := c.locStart[b]; ok {
		return c.locs[i : i+len(b.Insts)+1]
	}
	locs := make([]*metadata.DILocation, 0, len(b.Insts)+1) // a block collectFiles did not see
	for _, inst := range b.Insts {
		locs = append(locs, dbgLocation(inst))
	}
	return append(locs, dbgLocation(b.Term))
}

// depotName is the kernel's local depot, the per-thread memory of its allocas.
func (e *fnEmitter) depotName() string { return "__local_depot" + strconv.Itoa(e.idx) }

// alloca places a fixed-size alloca of the entry block in the local depot; its value is
// the generic address of its slot, computed in the prologue.
func (e *fnEmitter) alloca(i *ir.InstAlloca) error {
	if !slices.Contains(e.f.Blocks[0].Insts, ir.Instruction(i)) {
		return fmt.Errorf("alloca outside the entry block is not supported")
	}
	if i.NElems != nil {
		if n, ok := constIndex(i.NElems); !ok || n != 1 {
			return fmt.Errorf("alloca of a variable or repeated count is not supported")
		}
	}
	size, align, err := e.lay.sizeAlign(i.ElemType)
	if err != nil {
		return err
	}
	if i.Align != 0 {
		align = max(align, int64(i.Align))
	}
	off := (e.depot + align - 1) / align * align
	e.depot, e.depotAlign = off+size, max(e.depotAlign, align)
	d := e.newReg(rcB64)
	e.inPrologue(func() {
		if e.depotSP == "" {
			local := e.newReg(rcB64)
			e.depotSP = e.newReg(rcB64)
			e.emit("mov.b64", local, e.depotName())
			e.emit("cvta.local.u64", e.depotSP, local)
		}
		e.emit("add.u64", d, e.depotSP, strconv.FormatInt(off, 10))
	})
	e.set(i, e.one(d))
	return nil
}
