package tileir

import (
	"fmt"
	"slices"
)

// VerifyError is a verifier finding: the op, where it came from, and what is wrong.
type VerifyError struct {
	Func string // the function containing the op
	Op   string // the op's name
	Loc  Loc
	Msg  string
}

func (e *VerifyError) Error() string {
	where := "@" + e.Func
	if e.Loc.File != "" {
		where = fmt.Sprintf("%s:%d:%d", e.Loc.File, e.Loc.Line, e.Loc.Col)
	}
	return fmt.Sprintf("%s: '%s' op %s", where, e.Op, e.Msg)
}

// Verify checks the module and returns the first problem found, or nil: every operand is
// defined before its use (SSA dominance), every region ends with a terminator, and every op
// satisfies its catalogue entry's type rules.
func Verify(m *Module) error {
	c := &checker{m: m}
	for _, f := range m.Funcs {
		c.f = f
		if len(f.Body.Blocks) == 0 {
			return &VerifyError{Func: f.Name, Op: "tt.func", Loc: f.Loc, Msg: "has no body"}
		}
		if err := c.region(f.Body, map[*Value]bool{}, nil); err != nil {
			return err
		}
	}
	return nil
}

// checker carries the context op verifiers need: the module (for tt.call) and the
// function (for tt.return).
type checker struct {
	m *Module
	f *Func
}

func (c *checker) errorf(op *Op, format string, args ...any) error {
	return &VerifyError{Func: c.f.Name, Op: op.Name, Loc: op.Loc, Msg: fmt.Sprintf(format, args...)}
}

// region verifies r; defined holds the values visible at its start; owner is the op that
// owns r (nil for a function body).
func (c *checker) region(r *Region, defined map[*Value]bool, owner *Op) error {
	var added []*Value
	defer func() {
		for _, v := range added {
			delete(defined, v)
		}
	}()
	if owner != nil && owner.Def() != nil && len(r.Blocks) == 0 && !(owner.Name == "scf.if" && r == owner.Regions[1]) {
		return c.errorf(owner, "has an empty region")
	}
	for _, b := range r.Blocks {
		for _, a := range b.Args {
			defined[a] = true
			added = append(added, a)
		}
		if owner == nil || owner.Def() != nil {
			if t := b.Terminator(); t == nil || !t.Has(Terminator) {
				at := &Op{Name: "tt.func", Loc: c.f.Loc}
				if owner != nil {
					at = owner
				}
				return c.errorf(at, "has a region that does not end with a terminator")
			}
		}
		for i, op := range b.Ops {
			if op.block != b {
				return c.errorf(op, "is not linked to its block")
			}
			if op.Has(Terminator) && i != len(b.Ops)-1 {
				return c.errorf(op, "is a terminator but is not the last op of its block")
			}
			for j, v := range op.Operands {
				if v == nil {
					return c.errorf(op, "operand #%d is nil", j)
				}
				if !defined[v] {
					return c.errorf(op, "operand #%d does not dominate this use", j)
				}
			}
			for _, sub := range op.Regions {
				if err := c.region(sub, defined, op); err != nil {
					return err
				}
			}
			if d := op.Def(); d != nil && d.verify != nil {
				if msg := d.verify(c, op); msg != "" {
					return c.errorf(op, "%s", msg)
				}
			}
			for _, v := range op.Results {
				defined[v] = true
				added = append(added, v)
			}
		}
	}
	return nil
}

// ---- helpers ----

func anyType(Type) bool     { return true }
func anyScalar(t Type) bool { return ScalarOf(t) != 0 }

func arity(op *Op, lo, hi, results int) string {
	if n := len(op.Operands); n < lo || n > hi {
		if lo == hi {
			return fmt.Sprintf("expects %d operands, has %d", lo, n)
		}
		return fmt.Sprintf("expects %d to %d operands, has %d", lo, hi, n)
	}
	if len(op.Results) != results {
		return fmt.Sprintf("expects %d results, has %d", results, len(op.Results))
	}
	return ""
}

func typeIs(what string, got, want Type) string {
	if got != want {
		return fmt.Sprintf("%s has type %s, expected %s", what, got, want)
	}
	return ""
}

// first returns the first non-empty message.
func first(msgs ...string) string {
	for _, m := range msgs {
		if m != "" {
			return m
		}
	}
	return ""
}

func regionTypes(r *Region, name string, want []Type) string {
	if len(r.Blocks) == 0 {
		return ""
	}
	t := r.Entry().Terminator()
	if t.Name != name {
		return fmt.Sprintf("region must end with %s, not %s", name, t.Name)
	}
	return typesMatch(name, valueTypes(t.Operands), want)
}

func typesMatch(what string, got, want []Type) string {
	if !slices.Equal(got, want) {
		return fmt.Sprintf("%s types (%s) do not match (%s)", what, typeList(got), typeList(want))
	}
	return ""
}

// ---- op verifiers ----

// verifyKind checks an n-operand SameType op whose type satisfies kind.
func verifyKind(kind func(Type) bool, n int) func(*checker, *Op) string {
	return func(_ *checker, op *Op) string {
		if m := arity(op, n, n, 1); m != "" {
			return m
		}
		t := op.Results[0].Type
		for i, v := range op.Operands {
			if m := typeIs(fmt.Sprintf("operand #%d", i), v.Type, t); m != "" {
				return m
			}
		}
		if !kind(t) {
			return "does not accept type " + t.String()
		}
		return ""
	}
}

var (
	intPredicates   = []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}
	floatPredicates = []string{"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"}
)

func verifyCmp(kind func(Type) bool, preds []string) func(*checker, *Op) string {
	return func(_ *checker, op *Op) string {
		if m := arity(op, 2, 2, 1); m != "" {
			return m
		}
		t := op.Operands[0].Type
		if !slices.Contains(preds, op.EnumAttr("predicate")) {
			return fmt.Sprintf("has invalid predicate %q", op.EnumAttr("predicate"))
		}
		if !kind(t) {
			return "does not accept type " + t.String()
		}
		return first(typeIs("operand #1", op.Operands[1].Type, t), typeIs("result", op.Results[0].Type, WithElem(t, I1)))
	}
}

func verifyConstant(_ *checker, op *Op) string {
	if m := arity(op, 0, 0, 1); m != "" {
		return m
	}
	v := op.Attr("value")
	t := attrType(v)
	if t == nil {
		return "needs a typed value attribute"
	}
	if d, ok := v.(DenseAttr); ok && attrType(d.Splat) != d.T.Elem() {
		return "splat value does not match the tensor element type"
	}
	return typeIs("result", op.Results[0].Type, t)
}

func verifySelect(_ *checker, op *Op) string {
	if m := arity(op, 3, 3, 1); m != "" {
		return m
	}
	t := op.Results[0].Type
	if c := op.Operands[0].Type; c != I1 && c != WithElem(t, I1) {
		return fmt.Sprintf("condition has type %s, expected i1 or %s", c, WithElem(t, I1))
	}
	return first(typeIs("true value", op.Operands[1].Type, t), typeIs("false value", op.Operands[2].Type, t))
}

func verifyProgramAxis(_ *checker, op *Op) string {
	if m := arity(op, 0, 0, 1); m != "" {
		return m
	}
	if a := op.EnumAttr("axis"); a != "x" && a != "y" && a != "z" {
		return fmt.Sprintf("has invalid axis %q", a)
	}
	return typeIs("result", op.Results[0].Type, I32)
}

func verifyMakeRange(_ *checker, op *Op) string {
	if m := arity(op, 0, 0, 1); m != "" {
		return m
	}
	start, end := op.IntAttr("start"), op.IntAttr("end")
	t, ok := op.Results[0].Type.(*TensorType)
	if !ok || len(t.shape) != 1 || t.elem != I32 {
		return "result must be a 1-D tensor of i32"
	}
	if end <= start || t.shape[0] != end-start {
		return fmt.Sprintf("range [%d, %d) does not match %s", start, end, t)
	}
	return ""
}

func tensorOf(v *Value) (*TensorType, bool) {
	t, ok := v.Type.(*TensorType)
	return t, ok
}

func verifySplat(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	rt, ok := op.Results[0].Type.(*TensorType)
	if !ok {
		return "result must be a tensor"
	}
	return typeIs("operand", op.Operands[0].Type, rt.elem)
}

func verifyBroadcast(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	st, ok1 := tensorOf(op.Operands[0])
	rt, ok2 := tensorOf(op.Results[0])
	if !ok1 || !ok2 || st.elem != rt.elem || len(st.shape) != len(rt.shape) {
		return fmt.Sprintf("cannot broadcast %s to %s", op.Operands[0].Type, op.Results[0].Type)
	}
	for i, d := range st.shape {
		if d != 1 && d != rt.shape[i] {
			return fmt.Sprintf("cannot broadcast dimension %d of %s to %s", i, st, rt)
		}
	}
	return ""
}

func verifyExpandDims(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok {
		return "operand must be a tensor"
	}
	axis := int(op.IntAttr("axis"))
	if axis < 0 || axis > len(st.shape) {
		return fmt.Sprintf("axis %d out of range", axis)
	}
	want := Tensor(slices.Insert(slices.Clone(st.shape), axis, 1), st.elem)
	return typeIs("result", op.Results[0].Type, want)
}

func verifyReshape(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	st, ok1 := tensorOf(op.Operands[0])
	rt, ok2 := tensorOf(op.Results[0])
	if !ok1 || !ok2 || st.elem != rt.elem || st.NumElements() != rt.NumElements() {
		return fmt.Sprintf("cannot reshape %s to %s", op.Operands[0].Type, op.Results[0].Type)
	}
	return ""
}

func verifyTrans(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	st, ok := tensorOf(op.Operands[0])
	order, _ := op.Attr("order").(I32ArrayAttr)
	if !ok || len(order) != len(st.shape) {
		return "order must be a permutation of the operand's dimensions"
	}
	shape := make([]int64, len(order))
	seen := make([]bool, len(order))
	for i, o := range order {
		if o < 0 || int(o) >= len(order) || seen[o] {
			return "order must be a permutation of the operand's dimensions"
		}
		seen[o] = true
		shape[i] = st.shape[o]
	}
	return typeIs("result", op.Results[0].Type, Tensor(shape, st.elem))
}

func verifyJoin(_ *checker, op *Op) string {
	if m := arity(op, 2, 2, 1); m != "" {
		return m
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok {
		return "operands must be tensors"
	}
	return first(typeIs("operand #1", op.Operands[1].Type, st),
		typeIs("result", op.Results[0].Type, Tensor(append(slices.Clone(st.shape), 2), st.elem)))
}

func verifySplit(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 2); m != "" {
		return m
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok || len(st.shape) == 0 || st.shape[len(st.shape)-1] != 2 {
		return "operand's last dimension must be 2"
	}
	want := Tensor(st.shape[:len(st.shape)-1], st.elem)
	return first(typeIs("result #0", op.Results[0].Type, want), typeIs("result #1", op.Results[1].Type, want))
}

func verifyCat(_ *checker, op *Op) string {
	if m := arity(op, 2, 2, 1); m != "" {
		return m
	}
	st, ok1 := tensorOf(op.Operands[0])
	rt, ok2 := tensorOf(op.Results[0])
	if !ok1 || !ok2 || st.elem != rt.elem || len(st.shape) != len(rt.shape) || rt.NumElements() != 2*st.NumElements() {
		return fmt.Sprintf("cannot concatenate two %s into %s", op.Operands[0].Type, op.Results[0].Type)
	}
	return typeIs("operand #1", op.Operands[1].Type, st)
}

func verifyAddPtr(_ *checker, op *Op) string {
	if m := arity(op, 2, 2, 1); m != "" {
		return m
	}
	p, off := op.Operands[0].Type, op.Operands[1].Type
	if !IsPtrLike(p) || !IsIntLike(off) || !sameShape(p, off) {
		return fmt.Sprintf("cannot offset %s by %s", p, off)
	}
	return typeIs("result", op.Results[0].Type, p)
}

// cast width rules
const (
	castAny = iota
	castWiden
	castNarrow
	castSameWidth
)

func bitsOf(t Type) int {
	if IsPtrLike(t) {
		return 64
	}
	return ScalarOf(t).Bits()
}

func verifyCast(from, to func(Type) bool, rule int) func(*checker, *Op) string {
	return func(_ *checker, op *Op) string {
		if m := arity(op, 1, 1, 1); m != "" {
			return m
		}
		s, d := op.Operands[0].Type, op.Results[0].Type
		bad := !from(s) || !to(d) || !sameShape(s, d)
		switch rule {
		case castWiden:
			bad = bad || bitsOf(d) <= bitsOf(s)
		case castNarrow:
			bad = bad || bitsOf(d) >= bitsOf(s)
		case castSameWidth:
			bad = bad || bitsOf(d) != bitsOf(s)
		}
		if bad {
			return fmt.Sprintf("cannot cast %s to %s", s, d)
		}
		return ""
	}
}

func verifyHistogram(_ *checker, op *Op) string {
	if m := arity(op, 1, 2, 1); m != "" {
		return m
	}
	st, ok1 := tensorOf(op.Operands[0])
	rt, ok2 := tensorOf(op.Results[0])
	if !ok1 || !ok2 || len(st.shape) != 1 || len(rt.shape) != 1 || !IsIntLike(st) || !IsIntLike(rt) {
		return "operand and result must be 1-D integer tensors"
	}
	if len(op.Operands) == 2 {
		return typeIs("mask", op.Operands[1].Type, WithElem(st, I1))
	}
	return ""
}

func verifyGather(_ *checker, op *Op) string {
	if m := arity(op, 2, 2, 1); m != "" {
		return m
	}
	st, ok1 := tensorOf(op.Operands[0])
	it, ok2 := tensorOf(op.Operands[1])
	if !ok1 || !ok2 || !IsIntLike(it) {
		return "operands must be a tensor and an integer index tensor"
	}
	if len(st.shape) != len(it.shape) {
		return "source and indices must have the same rank"
	}
	axis := op.IntAttr("axis")
	if axis < 0 || int(axis) >= len(st.shape) {
		return fmt.Sprintf("axis %d out of range for rank %d", axis, len(st.shape))
	}
	for d := range st.shape {
		if d != int(axis) && it.shape[d] > st.shape[d] {
			return fmt.Sprintf("indices dimension %d (%d) is larger than the source's (%d)", d, it.shape[d], st.shape[d])
		}
	}
	return typeIs("result", op.Results[0].Type, Tensor(it.shape, st.elem))
}

func verifyMapElementwise(_ *checker, op *Op) string {
	pack := int(op.IntAttr("pack"))
	if len(op.Operands) == 0 || len(op.Results) == 0 || pack < 1 {
		return "needs at least one operand, one result and pack >= 1"
	}
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return "needs one region with one block"
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok {
		return "operands must be tensors"
	}
	var args, rets []Type
	for _, v := range op.Operands {
		t, ok := tensorOf(v)
		if !ok || !slices.Equal(t.shape, st.shape) {
			return "operands must have one shape"
		}
		for range pack {
			args = append(args, t.elem)
		}
	}
	for _, v := range op.Results {
		t, ok := tensorOf(v)
		if !ok || !slices.Equal(t.shape, st.shape) {
			return "results must have the operands' shape"
		}
		for range pack {
			rets = append(rets, t.elem)
		}
	}
	return first(typesMatch("region argument", valueTypes(op.Regions[0].Entry().Args), args),
		regionTypes(op.Regions[0], "tt.map_elementwise.return", rets))
}

func verifyUnsplat(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 1); m != "" {
		return m
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok || st.NumElements() != 1 {
		return "operand must be a tensor of one element"
	}
	return typeIs("result", op.Results[0].Type, st.elem)
}

// isBlockPtr reports whether t is a pointer to a tensor (tt.make_tensor_ptr's result).
func isBlockPtr(t Type) bool {
	p, ok := t.(*PtrType)
	if !ok {
		return false
	}
	_, ok = p.elem.(*TensorType)
	return ok
}

func verifyMask(op *Op, i int, value Type) string {
	if len(op.Operands) <= i {
		return ""
	}
	if isBlockPtr(op.Operands[0].Type) {
		return "cannot take a mask with a block pointer (use boundaryCheck)"
	}
	return typeIs("mask", op.Operands[i].Type, WithElem(value, I1))
}

func verifyLoad(_ *checker, op *Op) string {
	if m := arity(op, 1, 3, 1); m != "" {
		return m
	}
	p := op.Operands[0].Type
	if !IsPtrLike(p) {
		return "pointer operand has type " + p.String()
	}
	t := pointeeType(p)
	m := first(typeIs("result", op.Results[0].Type, t), verifyMask(op, 1, t))
	if m == "" && len(op.Operands) == 3 {
		m = typeIs("other", op.Operands[2].Type, t)
	}
	return m
}

func verifyStore(_ *checker, op *Op) string {
	if m := arity(op, 2, 3, 0); m != "" {
		return m
	}
	p := op.Operands[0].Type
	if !IsPtrLike(p) {
		return "pointer operand has type " + p.String()
	}
	t := pointeeType(p)
	return first(typeIs("value", op.Operands[1].Type, t), verifyMask(op, 2, t))
}

var (
	memSems   = []string{"relaxed", "acquire", "release", "acq_rel"}
	memScopes = []string{"gpu", "cta", "sys"}
	rmwOps    = []string{"and", "or", "xor", "add", "fadd", "max", "min", "umax", "umin", "exch"}
)

func verifyAtomicOrder(op *Op) string {
	if !slices.Contains(memSems, op.EnumAttr("sem")) {
		return fmt.Sprintf("has invalid memory semantic %q", op.EnumAttr("sem"))
	}
	if !slices.Contains(memScopes, op.EnumAttr("scope")) {
		return fmt.Sprintf("has invalid scope %q", op.EnumAttr("scope"))
	}
	return ""
}

func verifyAtomicRMW(_ *checker, op *Op) string {
	if m := arity(op, 2, 3, 1); m != "" {
		return m
	}
	if !slices.Contains(rmwOps, op.EnumAttr("atomic_rmw_op")) {
		return fmt.Sprintf("has invalid operation %q", op.EnumAttr("atomic_rmw_op"))
	}
	p := op.Operands[0].Type
	if !IsPtrLike(p) || isBlockPtr(p) {
		return "pointer operand has type " + p.String()
	}
	t := pointeeType(p)
	return first(verifyAtomicOrder(op), typeIs("value", op.Operands[1].Type, t), verifyMask(op, 2, t),
		typeIs("result", op.Results[0].Type, t))
}

func verifyAtomicCAS(_ *checker, op *Op) string {
	if m := arity(op, 3, 3, 1); m != "" {
		return m
	}
	p := op.Operands[0].Type
	if !IsPtrLike(p) || isBlockPtr(p) {
		return "pointer operand has type " + p.String()
	}
	t := pointeeType(p)
	return first(verifyAtomicOrder(op), typeIs("compare value", op.Operands[1].Type, t),
		typeIs("new value", op.Operands[2].Type, t), typeIs("result", op.Results[0].Type, t))
}

func verifyDot(_ *checker, op *Op) string {
	if m := arity(op, 3, 3, 1); m != "" {
		return m
	}
	a, ok1 := tensorOf(op.Operands[0])
	b, ok2 := tensorOf(op.Operands[1])
	c, ok3 := tensorOf(op.Operands[2])
	if !ok1 || !ok2 || !ok3 {
		return "operands must be tensors"
	}
	r := len(a.shape)
	if r < 2 || r > 3 || len(b.shape) != r || len(c.shape) != r {
		return "operands must all be 2-D (or 3-D, batched)"
	}
	if r == 3 && (a.shape[0] != b.shape[0] || a.shape[0] != c.shape[0]) {
		return "batch dimensions differ"
	}
	m, k, k2, n := a.shape[r-2], a.shape[r-1], b.shape[r-2], b.shape[r-1]
	if k != k2 || c.shape[r-2] != m || c.shape[r-1] != n {
		return fmt.Sprintf("shapes do not multiply: %s * %s -> %s", a, b, c)
	}
	if ip := op.EnumAttr("inputPrecision"); op.Attr("inputPrecision") != nil && !slices.Contains([]string{"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}, ip) {
		return fmt.Sprintf("has invalid inputPrecision %q", ip)
	}
	return typeIs("result", op.Results[0].Type, c)
}

// combinerTypes checks a reduce/scan combine region: 2n scalar arguments, a return of n.
func combinerTypes(op *Op, ret string) string {
	if len(op.Regions) != 1 || len(op.Regions[0].Blocks) != 1 {
		return "needs one combine region with one block"
	}
	var elems []Type
	for _, v := range op.Operands {
		elems = append(elems, ElemType(v.Type))
	}
	return first(typesMatch("combine region argument", valueTypes(op.Regions[0].Entry().Args), append(slices.Clone(elems), elems...)),
		regionTypes(op.Regions[0], ret, elems))
}

func verifyReduce(_ *checker, op *Op) string {
	if len(op.Operands) == 0 || len(op.Results) != len(op.Operands) {
		return "needs as many results as operands, at least one"
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok {
		return "operands must be tensors"
	}
	axis := int(op.IntAttr("axis"))
	if axis < 0 || axis >= len(st.shape) {
		return fmt.Sprintf("axis %d out of range", axis)
	}
	shape := slices.Delete(slices.Clone(st.shape), axis, axis+1)
	for i, v := range op.Operands {
		t, ok := tensorOf(v)
		if !ok || !slices.Equal(t.shape, st.shape) {
			return "operands must have one shape"
		}
		want := Type(t.elem)
		if len(shape) > 0 {
			want = Tensor(shape, t.elem)
		}
		if m := typeIs(fmt.Sprintf("result #%d", i), op.Results[i].Type, want); m != "" {
			return m
		}
	}
	return combinerTypes(op, "tt.reduce.return")
}

func verifyScan(_ *checker, op *Op) string {
	if len(op.Operands) == 0 || len(op.Results) != len(op.Operands) {
		return "needs as many results as operands, at least one"
	}
	st, ok := tensorOf(op.Operands[0])
	if !ok {
		return "operands must be tensors"
	}
	if axis := int(op.IntAttr("axis")); axis < 0 || axis >= len(st.shape) {
		return fmt.Sprintf("axis %d out of range", axis)
	}
	for i, v := range op.Operands {
		if t, ok := tensorOf(v); !ok || !slices.Equal(t.shape, st.shape) {
			return "operands must have one shape"
		}
		if m := typeIs(fmt.Sprintf("result #%d", i), op.Results[i].Type, v.Type); m != "" {
			return m
		}
	}
	return combinerTypes(op, "tt.scan.return")
}

func allOf(vs []*Value, t Type, what string) string {
	for _, v := range vs {
		if v.Type != t {
			return fmt.Sprintf("%s must be %s, got %s", what, t, v.Type)
		}
	}
	return ""
}

func verifyMakeTensorPtr(_ *checker, op *Op) string {
	n := len(op.Operands) - 1
	if n < 3 || n%3 != 0 || len(op.Results) != 1 {
		return "expects a base and three equal lists (shape, strides, offsets)"
	}
	r := n / 3
	base, ok := op.Operands[0].Type.(*PtrType)
	if !ok {
		return "base must be a pointer"
	}
	res, ok := op.Results[0].Type.(*PtrType)
	if !ok || !isBlockPtr(res) {
		return "result must be a pointer to a tensor"
	}
	blk := res.elem.(*TensorType)
	if len(blk.shape) != r || blk.elem != base.elem {
		return fmt.Sprintf("result %s does not match base %s and rank %d", res, base, r)
	}
	if order, _ := op.Attr("order").(I32ArrayAttr); len(order) != r {
		return "order must have one entry per dimension"
	}
	return first(allOf(op.Operands[1:1+2*r], I64, "shape and strides"), allOf(op.Operands[1+2*r:], I32, "offsets"))
}

func verifyAdvance(_ *checker, op *Op) string {
	if len(op.Operands) < 1 || len(op.Results) != 1 || !isBlockPtr(op.Operands[0].Type) {
		return "expects a block pointer"
	}
	blk := op.Operands[0].Type.(*PtrType).elem.(*TensorType)
	if len(op.Operands)-1 != len(blk.shape) {
		return "needs one offset per dimension"
	}
	return first(allOf(op.Operands[1:], I32, "offsets"), typeIs("result", op.Results[0].Type, op.Operands[0].Type))
}

func verifyMakeTensorDesc(_ *checker, op *Op) string {
	n := len(op.Operands) - 1
	if n < 2 || n%2 != 0 || len(op.Results) != 1 {
		return "expects a base and two equal lists (shape, strides)"
	}
	base, ok := op.Operands[0].Type.(*PtrType)
	d, ok2 := op.Results[0].Type.(*TensorDescType)
	if !ok || !ok2 || d.block.elem != base.elem || len(d.block.shape) != n/2 {
		return fmt.Sprintf("result %s does not match base %s", op.Results[0].Type, op.Operands[0].Type)
	}
	return first(allOf(op.Operands[1:1+n/2], I32, "shape"), allOf(op.Operands[1+n/2:], I64, "strides"))
}

func descBlock(v *Value) (*TensorType, string) {
	d, ok := v.Type.(*TensorDescType)
	if !ok {
		return nil, "descriptor operand has type " + v.Type.String()
	}
	return d.block, ""
}

func verifyDescriptorLoad(_ *checker, op *Op) string {
	if len(op.Operands) < 1 || len(op.Results) != 1 {
		return "expects a descriptor and a result"
	}
	return verifyBlockAccess(op.Operands[0], op.Results[0], op.Operands[1:], "result")
}

func verifyDescriptorStore(_ *checker, op *Op) string {
	if len(op.Operands) < 2 || len(op.Results) != 0 {
		return "expects a descriptor and a value"
	}
	return verifyBlockAccess(op.Operands[0], op.Operands[1], op.Operands[2:], "value")
}

// verifyBlockAccess checks a descriptor load or store: tile (the loaded result or the
// stored value, named by what) holds the descriptor's block, and there is one i32 index
// per block dimension.
func verifyBlockAccess(desc, tile *Value, indices []*Value, what string) string {
	blk, m := descBlock(desc)
	if m != "" {
		return m
	}
	if len(indices) != len(blk.shape) {
		return "needs one index per dimension"
	}
	t, ok := tensorOf(tile)
	if !ok || t.elem != blk.elem || t.NumElements() != blk.NumElements() {
		return fmt.Sprintf("%s %s does not match block %s", what, tile.Type, blk)
	}
	return allOf(indices, I32, "indices")
}

func needAttrs(op *Op, names ...string) string {
	for _, n := range names {
		if op.Attr(n) == nil {
			return "needs attribute " + n
		}
	}
	return ""
}

func verifyExtern(_ *checker, op *Op) string {
	if m := first(arity(op, 0, 1<<30, 1), needAttrs(op, "libname", "libpath", "symbol", "pure")); m != "" {
		return m
	}
	for i, v := range op.Operands {
		if !sameShape(v.Type, op.Results[0].Type) {
			return fmt.Sprintf("operand #%d has type %s, not the result's shape", i, v.Type)
		}
	}
	return ""
}

func verifyInlineAsm(_ *checker, op *Op) string {
	if len(op.Results) == 0 {
		return "needs at least one result"
	}
	return needAttrs(op, "asm_string", "constraints", "pure", "packed_element")
}

func verifyPrint(_ *checker, op *Op) string {
	if m := needAttrs(op, "prefix", "hex", "isSigned"); m != "" {
		return m
	}
	if s, _ := op.Attr("isSigned").(I32ArrayAttr); len(s) != len(op.Operands) {
		return "isSigned needs one entry per operand"
	}
	return ""
}

func verifyAssert(_ *checker, op *Op) string {
	if m := arity(op, 1, 1, 0); m != "" {
		return m
	}
	if ScalarOf(op.Operands[0].Type) != I1 {
		return "condition must be i1 or a tensor of i1, got " + op.Operands[0].Type.String()
	}
	if _, ok := op.Attr("message").(StringAttr); !ok {
		return "needs a message string"
	}
	return ""
}

func verifyAssume(_ *checker, op *Op) string {
	return first(arity(op, 1, 1, 0), typeIs("condition", op.Operands[0].Type, I1))
}

func verifyCall(c *checker, op *Op) string {
	name, _ := op.Attr("callee").(SymbolRefAttr)
	f := c.m.Func(string(name))
	if f == nil {
		return fmt.Sprintf("calls unknown function %s", name)
	}
	return first(typesMatch("argument", valueTypes(op.Operands), valueTypes(f.Args())),
		typesMatch("result", valueTypes(op.Results), f.Results))
}

func verifyReturn(c *checker, op *Op) string {
	if op.ParentOp() != nil {
		return "must be directly in a function body"
	}
	return typesMatch("returned", valueTypes(op.Operands), c.f.Results)
}

func verifyYield(_ *checker, op *Op) string {
	if p := op.ParentOp(); p == nil || (p.Name != "scf.for" && p.Name != "scf.if" && p.Name != "scf.while") {
		return "must end an scf.for, scf.if or scf.while region"
	}
	return ""
}

func verifyCondition(_ *checker, op *Op) string {
	if p := op.ParentOp(); p == nil || p.Name != "scf.while" || op.block.region != p.Regions[0] {
		return "must end the before region of an scf.while"
	}
	if len(op.Operands) == 0 {
		return "needs a condition"
	}
	return typeIs("condition", op.Operands[0].Type, I1)
}

func verifyFor(_ *checker, op *Op) string {
	if len(op.Operands) < 3 || len(op.Regions) != 1 {
		return "expects lower bound, upper bound, step and one region"
	}
	t := op.Operands[0].Type
	if _, ok := t.(Scalar); !ok || !IsIntLike(t) {
		return "bounds must be scalar integers, got " + t.String()
	}
	inits := valueTypes(op.Operands[3:])
	return first(typeIs("upper bound", op.Operands[1].Type, t), typeIs("step", op.Operands[2].Type, t),
		typesMatch("region argument", valueTypes(op.Regions[0].Entry().Args), append([]Type{t}, inits...)),
		typesMatch("result", valueTypes(op.Results), inits),
		regionTypes(op.Regions[0], "scf.yield", inits))
}

func verifyIf(_ *checker, op *Op) string {
	if len(op.Operands) != 1 || len(op.Regions) != 2 {
		return "expects a condition and two regions"
	}
	res := valueTypes(op.Results)
	if len(res) > 0 && len(op.Regions[1].Blocks) == 0 {
		return "must have an else region when it has results"
	}
	return first(typeIs("condition", op.Operands[0].Type, I1),
		regionTypes(op.Regions[0], "scf.yield", res), regionTypes(op.Regions[1], "scf.yield", res))
}

func verifyWhile(_ *checker, op *Op) string {
	if len(op.Regions) != 2 {
		return "expects two regions"
	}
	inits, res := valueTypes(op.Operands), valueTypes(op.Results)
	cond := op.Regions[0].Entry().Terminator()
	if cond.Name != "scf.condition" {
		return "before region must end with scf.condition"
	}
	return first(typesMatch("before argument", valueTypes(op.Regions[0].Entry().Args), inits),
		typesMatch("forwarded", valueTypes(cond.Operands[1:]), res),
		typesMatch("after argument", valueTypes(op.Regions[1].Entry().Args), res),
		regionTypes(op.Regions[1], "scf.yield", inits))
}
