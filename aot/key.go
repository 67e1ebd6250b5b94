package aot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/compiler"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// Version identifies the gotriton build: the module version and VCS revision stamped into
// the binary, plus a hash of the executable when the build is not a clean commit (a
// development build, a test binary), so that a rebuilt compiler never reuses old results.
var Version = sync.OnceValue(func() string {
	v := "devel"
	clean := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			v += "+" + rev
			clean = settings["vcs.modified"] == "false"
		}
	}
	if !clean {
		if exe, err := os.Executable(); err == nil {
			if f, err := os.Open(exe); err == nil {
				h := sha256.New()
				io.Copy(h, f)
				f.Close()
				v += "+exe." + hex.EncodeToString(h.Sum(nil))[:16]
			}
		}
	}
	return v
})

// Key is the content address of compiling kernel under spec and opts: a SHA-256 over
// gotriton's version, the target and launch options (Triton's enable_fp_fusion,
// enable_reflect_ftz, maxnreg and DISABLE_MMA_V3 included), every bound parameter, and the source of the kernel and of every function it reaches (with
// their decorators, files and lines, and the values of the other globals they name).
// extra adds what else shapes the output (the stage written, the ptxas used).
func Key(k *pyeval.JITFunction, spec *semantic.Spec, opts compiler.Options, extra ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "gotriton %s\x00triton %s\x00", Version(), TritonVersion)
	fmt.Fprintf(h, "target %s\x00warps %d\x00stages %d\x00debug %t\x00fp-fusion %t\x00reflect-ftz %t\x00maxnreg %d\x00nonkdim %d\x00mma-v3 %t\x00via-llc %t %s\x00",
		spec.Target, spec.NumWarps, spec.NumStages, opts.Debug, !opts.NoFPFusion, !opts.NoReflectFTZ, opts.MaxNReg, opts.MatrixInstrNonKDim, !opts.DisableMMAv3, opts.ViaLLC, opts.LLC)
	if !spec.Target.IsNVIDIA() { // the AMD code object is made by opt, llc and ld.lld
		fmt.Fprintf(h, "opt %s\x00lld %s\x00", opts.OPT, opts.LLD)
	}
	for _, p := range spec.Params {
		e := p.Entry
		fmt.Fprintf(h, "param %s %q %v %d %s\x00", p.Name, e.Text, e.Type, e.Divisibility, valueKey(e.Value))
	}
	for _, x := range extra {
		fmt.Fprintf(h, "extra %s\x00", x)
	}
	seen := map[*pyeval.Function]bool{}
	hashSources(h, k.Fn, seen)
	for _, p := range spec.Params { // jit functions passed as constexprs
		hashValueSources(h, p.Entry.Value, seen)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// valueKey writes a constexpr so that different values never collide.
func valueKey(v semantic.Value) string {
	switch v := v.(type) {
	case nil:
		return "-"
	case semantic.Const:
		return v.V.TypeName() + ":" + pyeval.Repr(v.V)
	case semantic.Tuple:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = valueKey(e)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// hashValueSources writes the sources of the jit functions a constexpr holds.
func hashValueSources(h hash.Hash, v semantic.Value, seen map[*pyeval.Function]bool) {
	switch v := v.(type) {
	case semantic.JITRef:
		hashSources(h, v.J.Fn, seen)
	case semantic.Tuple:
		for _, e := range v {
			hashValueSources(h, e, seen)
		}
	}
}

// hashSources writes fn's source (decorators included) and position, then follows every
// global it names: functions recursively, modules through the attributes taken of them,
// and any other value as its repr.
func hashSources(h hash.Hash, fn *pyeval.Function, seen map[*pyeval.Function]bool) {
	if fn == nil || seen[fn] {
		return
	}
	seen[fn] = true
	m := fn.Module
	var node ast.Node
	var pos ast.Pos
	if fn.Def != nil {
		node, pos = fn.Def, fn.Def.Pos
		for _, d := range fn.Def.DecoratorList {
			fmt.Fprintf(h, "decorator %s\x00", m.Text(d.Position()))
		}
	} else if fn.Lambda != nil {
		node, pos = fn.Lambda, fn.Lambda.Pos
	} else {
		return
	}
	fmt.Fprintf(h, "function %s %s:%d:%d\x00%s\x00", fn.Name, m.File, pos.Lineno, pos.ColOffset, m.Text(pos))
	follow := func(name string, v pyeval.Value) {
		switch v := v.(type) {
		case *pyeval.JITFunction:
			hashSources(h, v.Fn, seen)
		case *pyeval.Function:
			hashSources(h, v, seen)
		case *pyeval.Module:
			fmt.Fprintf(h, "module %s %s\x00", name, v.File)
		default:
			fmt.Fprintf(h, "global %s %s:%s\x00", name, v.TypeName(), pyeval.Repr(v))
		}
	}
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Attribute:
			root, path := attrPath(n)
			if root == nil {
				return true
			}
			v, ok := m.Lookup(root.ID)
			if !ok {
				return false
			}
			name := root.ID
			for _, a := range path {
				mod, isMod := v.(*pyeval.Module)
				if !isMod {
					break
				}
				attr, err := mod.Attr(a)
				if err != nil {
					break
				}
				v, name = attr, name+"."+a
			}
			follow(name, v)
			return false
		case *ast.Name:
			if v, ok := m.Lookup(n.ID); ok {
				follow(n.ID, v)
			}
		}
		return true
	})
}

// attrPath splits a.b.c into its root name and the attributes taken, or returns a nil root
// when the chain does not start at a name.
func attrPath(a *ast.Attribute) (*ast.Name, []string) {
	var path []string
	var e ast.Expr = a
	for {
		switch x := e.(type) {
		case *ast.Attribute:
			path = append([]string{x.Attr}, path...)
			e = x.Value
		case *ast.Name:
			return x, path
		default:
			return nil, nil
		}
	}
}
