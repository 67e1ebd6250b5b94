package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/conformance"
	"github.com/gotriton/gotriton/driver"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/npy"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
)

// runCommand runs one kernel on .npy buffers.
func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run one kernel on buffers given as .npy files",
		ArgsUsage: "FILE",
		Description: "--args gives one value per runtime parameter of the signature, in order (constexprs and\n" +
			"integers specialized with :1 take none): a .npy file for each pointer, a number for each\n" +
			"scalar. Files whose contents the kernel changed are written back. Element types must match\n" +
			"the pointers (fp32 <f4, fp16 <f2, fp64 <f8, iN/uN the same width, i1 |b1); bf16 and fp8 have\n" +
			"no numpy dtype: pass their raw bits as <u2 / |u1 arrays.\n" +
			"The grid is three comma-separated integer expressions over the scalar parameters' names\n" +
			"(+ - * / % and cdiv(a, b); / is C's integer division), e.g. \"cdiv(n_elements, 1024),1,1\".",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "kernel-name", Aliases: []string{"n"}, Required: true, Usage: "the @triton.jit `KERNEL`"},
			&cli.StringFlag{Name: "signature", Aliases: []string{"s"}, Required: true, Usage: "the specialization, as triton.tools.compile takes it"},
			&cli.StringFlag{Name: "grid", Aliases: []string{"g"}, Required: true, Usage: "the launch grid `X,Y,Z`"},
			&cli.IntFlag{Name: "num-warps", Aliases: []string{"w"}, Value: 4, Usage: "num_warps"},
			&cli.IntFlag{Name: "num-stages", Aliases: []string{"ns"}, Value: 3, Usage: "num_stages"},
			&cli.StringFlag{Name: "device", Value: "cpu", Usage: "cpu, cuda, nv-sim (the SIMT interpreter of the sm_90 LLVM IR) or amd-sim (of the gfx942 LLVM IR)"},
			&cli.BoolFlag{Name: "via-llc", Usage: "on cuda, make PTX with llc-22 instead of gotriton's emitter"},
			&cli.StringFlag{Name: "args", Usage: "comma-separated .npy files and numbers"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			path, err := oneFile(c)
			if err != nil {
				return err
			}
			return runKernel(c, path)
		},
	}
}

// npyDescrs lists the numpy dtypes accepted for each pointer element type.
var npyDescrs = map[string][]string{
	"fp32": {"<f4"}, "fp16": {"<f2"}, "fp64": {"<f8"}, "bf16": {"<u2", "<i2"},
	"fp8e4nv": {"|u1", "|i1"}, "fp8e5": {"|u1", "|i1"}, "fp8e4b15": {"|u1", "|i1"}, "fp8e4b8": {"|u1", "|i1"}, "fp8e5b16": {"|u1", "|i1"},
	"int1": {"|b1", "|u1", "|i1"}, "int8": {"|i1", "|u1"}, "int16": {"<i2", "<u2"}, "int32": {"<i4", "<u4"}, "int64": {"<i8", "<u8"},
	"uint8": {"|u1", "|i1"}, "uint16": {"<u2", "<i2"}, "uint32": {"<u4", "<i4"}, "uint64": {"<u8", "<i8"},
}

func runKernel(c *cli.Command, path string) error {
	kernel := c.String("kernel-name")
	sig, err := semantic.ParseSignature(c.String("signature"))
	if err != nil {
		return fmt.Errorf("gotriton run: --signature: %v", err)
	}
	var raw []string
	if s := strings.TrimSpace(c.String("args")); s != "" {
		for _, a := range strings.Split(s, ",") {
			raw = append(raw, strings.TrimSpace(a))
		}
	}
	f, err := frontend.Load(path, pyeval.Options{})
	if err != nil {
		return err
	}
	k := f.Kernel(kernel)
	if k == nil {
		_, err := semantic.Compile(f, kernel, semantic.Options{Signature: sig})
		return err
	}
	var runtime []int // signature indexes of runtime parameters
	for i, e := range sig {
		if !e.IsConstexpr() {
			runtime = append(runtime, i)
		}
	}
	if len(raw) != len(runtime) {
		var names []string
		for _, i := range runtime {
			if i < len(k.Params) {
				names = append(names, k.Params[i].Name)
			}
		}
		return fmt.Errorf("gotriton run: --args has %d values, the signature has %d runtime parameters (%s)", len(raw), len(runtime), strings.Join(names, ", "))
	}
	m, err := semantic.Compile(f, kernel, semantic.Options{Signature: sig, NumWarps: int(c.Int("num-warps")), NumStages: int(c.Int("num-stages"))})
	if err != nil {
		return err
	}
	dev, err := conformance.OpenDevice(c.String("device"), c.Bool("via-llc"))
	if err != nil {
		return fmt.Errorf("gotriton run: %v", err)
	}
	defer dev.Driver.Close()
	kern, err := dev.Load(m, kernel, int(c.Int("num-warps")), int(c.Int("num-stages")))
	if err != nil {
		return err
	}

	type bound struct {
		file  string
		arr   *npy.Array
		buf   driver.Buffer
		index int
	}
	var bufs []bound
	defer func() {
		for _, b := range bufs {
			b.buf.Free()
		}
	}()
	scalars := map[string]int64{}
	args := make([]any, 0, len(raw))
	for j, i := range runtime {
		e, a := sig[i], raw[j]
		name := fmt.Sprintf("#%d", i)
		if i < len(k.Params) {
			name = k.Params[i].Name
		}
		switch t := e.Type.(type) {
		case *semantic.PtrType:
			arr, err := npy.ReadFile(a)
			if err != nil {
				return fmt.Errorf("gotriton run: %s: %v", name, err)
			}
			elem := t.Elem.String()
			if !slices.Contains(npyDescrs[elem], arr.Descr) {
				return fmt.Errorf("gotriton run: %s: %s holds %s, but the kernel takes *%s (want %s)", name, a, arr.Descr, elem, strings.Join(npyDescrs[elem], " or "))
			}
			b, err := dev.Driver.Alloc(max(len(arr.Data), 1))
			if err != nil {
				return err
			}
			bufs = append(bufs, bound{file: a, arr: arr, buf: b, index: i})
			if err := b.Write(0, arr.Data); err != nil {
				return err
			}
			args = append(args, b)
		case semantic.DType:
			v, err := scalarArg(t, a)
			if err != nil {
				return fmt.Errorf("gotriton run: %s: %v", name, err)
			}
			if t.IsInt() {
				n, _ := strconv.ParseInt(a, 0, 64)
				scalars[name] = n
			}
			args = append(args, v)
		default:
			return fmt.Errorf("gotriton run: %s: parameters of type %s are not supported by gotriton run", name, e.Text)
		}
	}
	grid, err := parseGrid(c.String("grid"), scalars)
	if err != nil {
		return fmt.Errorf("gotriton run: --grid: %v", err)
	}
	start := time.Now()
	if err := kern.Launch(grid, args...); err != nil {
		return err
	}
	if err := dev.Driver.Synchronize(); err != nil {
		return err
	}
	elapsed := time.Since(start)
	var written []string
	for _, b := range bufs {
		out := make([]byte, len(b.arr.Data))
		if err := b.buf.Read(0, out); err != nil {
			return err
		}
		if bytes.Equal(out, b.arr.Data) {
			continue
		}
		b.arr.Data = out
		if err := b.arr.WriteFile(b.file); err != nil {
			return err
		}
		written = append(written, b.file)
	}
	fmt.Fprintf(c.Root().Writer, "%s: grid %v on %s in %.3fs; wrote %s\n", kernel, grid, dev.Name, elapsed.Seconds(), orNone(written))
	return nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	return strings.Join(xs, ", ")
}

// scalarArg converts a command-line number to the Go type the driver takes for t.
func scalarArg(t semantic.DType, s string) (any, error) {
	if t.IsFloat() {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		if t == semantic.FP64 {
			return x, nil
		}
		return float32(x), nil
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	switch {
	case t.Bits() == 64:
		return n, nil
	case t.IsUnsigned():
		return uint32(n), nil
	}
	return int32(n), nil
}

// parseGrid evaluates "x,y,z" (missing dimensions are 1).
func parseGrid(s string, vars map[string]int64) (driver.Grid, error) {
	g := driver.Grid{1, 1, 1}
	parts := splitTop(s)
	if len(parts) == 0 || len(parts) > 3 {
		return g, fmt.Errorf("want 1 to 3 comma-separated expressions, got %q", s)
	}
	for i, p := range parts {
		e := &gridExpr{src: p, vars: vars}
		v, err := e.parse()
		if err != nil {
			return g, err
		}
		if v < 0 {
			return g, fmt.Errorf("%s is negative (%d)", strings.TrimSpace(p), v)
		}
		g[i] = int(v)
	}
	return g, nil
}

// splitTop splits at commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" || len(out) > 0 {
		out = append(out, s[start:])
	}
	return out
}

// gridExpr is a small recursive-descent evaluator of integer expressions.
type gridExpr struct {
	src  string
	pos  int
	vars map[string]int64
}

func (e *gridExpr) parse() (int64, error) {
	v, err := e.sum()
	if err != nil {
		return 0, err
	}
	e.skip()
	if e.pos != len(e.src) {
		return 0, fmt.Errorf("unexpected %q in %q", e.src[e.pos:], strings.TrimSpace(e.src))
	}
	return v, nil
}

func (e *gridExpr) skip() {
	for e.pos < len(e.src) && e.src[e.pos] == ' ' {
		e.pos++
	}
}

func (e *gridExpr) peek() byte {
	e.skip()
	if e.pos < len(e.src) {
		return e.src[e.pos]
	}
	return 0
}

func (e *gridExpr) sum() (int64, error) {
	v, err := e.product()
	for err == nil {
		op := e.peek()
		if op != '+' && op != '-' {
			break
		}
		e.pos++
		var w int64
		if w, err = e.product(); op == '+' {
			v += w
		} else {
			v -= w
		}
	}
	return v, err
}

func (e *gridExpr) product() (int64, error) {
	v, err := e.atom()
	for err == nil {
		op := e.peek()
		if op != '*' && op != '/' && op != '%' {
			break
		}
		e.pos++
		var w int64
		if w, err = e.atom(); err != nil {
			break
		}
		switch {
		case op == '*':
			v *= w
		case w == 0:
			return 0, fmt.Errorf("division by zero in %q", strings.TrimSpace(e.src))
		case op == '/':
			v /= w
		default:
			v %= w
		}
	}
	return v, err
}

func (e *gridExpr) atom() (int64, error) {
	switch c := e.peek(); {
	case c == '(':
		e.pos++
		v, err := e.sum()
		if err != nil {
			return 0, err
		}
		if e.peek() != ')' {
			return 0, fmt.Errorf("missing ')' in %q", strings.TrimSpace(e.src))
		}
		e.pos++
		return v, nil
	case c == '-':
		e.pos++
		v, err := e.atom()
		return -v, err
	case c >= '0' && c <= '9':
		start := e.pos
		for e.pos < len(e.src) && (e.src[e.pos] >= '0' && e.src[e.pos] <= '9' || e.src[e.pos] == '_') {
			e.pos++
		}
		return strconv.ParseInt(strings.ReplaceAll(e.src[start:e.pos], "_", ""), 10, 64)
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := e.pos
		for e.pos < len(e.src) && (e.src[e.pos] == '_' || e.src[e.pos] >= 'a' && e.src[e.pos] <= 'z' || e.src[e.pos] >= 'A' && e.src[e.pos] <= 'Z' || e.src[e.pos] >= '0' && e.src[e.pos] <= '9') {
			e.pos++
		}
		name := e.src[start:e.pos]
		if name == "cdiv" && e.peek() == '(' {
			e.pos++
			a, err := e.sum()
			if err != nil {
				return 0, err
			}
			if e.peek() != ',' {
				return 0, fmt.Errorf("cdiv takes two arguments in %q", strings.TrimSpace(e.src))
			}
			e.pos++
			b, err := e.sum()
			if err != nil {
				return 0, err
			}
			if e.peek() != ')' || b == 0 {
				return 0, fmt.Errorf("bad cdiv in %q", strings.TrimSpace(e.src))
			}
			e.pos++
			return (a + b - 1) / b, nil
		}
		v, ok := e.vars[name]
		if !ok {
			return 0, fmt.Errorf("unknown name %q in the grid (integer parameters are known by name)", name)
		}
		return v, nil
	}
	return 0, fmt.Errorf("bad grid expression %q", strings.TrimSpace(e.src))
}
