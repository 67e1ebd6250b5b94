package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/diag"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/launch"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/semantic"
	"github.com/gotriton/gotriton/target"
)

// errReported makes a command exit 1 after it printed its own errors.
var errReported = errors.New("errors reported")

// targetOf is the -t flag of a command that takes one target (the first given).
func targetOf(c *cli.Command) string {
	if ts := c.StringSlice("target"); len(ts) > 0 {
		return ts[0]
	}
	return ""
}

// inferFlags are the flags of zero-config check and compile.
func inferFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "const", Aliases: []string{"c"}, Usage: "NAME=VALUE: set a constexpr or scalar parameter by name in every kernel that has it (repeatable)"},
	}
}

func checkCommand() *cli.Command {
	flags := append(specFlags(false), inferFlags()...)
	flags = append(flags,
		&cli.BoolFlag{Name: "strict", Usage: "a kernel that cannot be checked is an error"},
		&cli.StringFlag{Name: "error-format", Value: "text", Usage: "text, json (one object per line) or github (Actions annotations)"},
	)
	return &cli.Command{
		Name:  "check",
		Usage: "type-check every kernel of files or folders under the specializations their launches make",
		Description: "Without -n, every .py file (folders recursively) is run offline as `python FILE` would run it,\n" +
			"with tensors tracked abstractly, and each kernel is type-checked under every specialization its\n" +
			"launches and autotune configs make (Triton 3.6's rules). A kernel no launch reaches is checked\n" +
			"under a guessed signature when its constexprs are known, else reported as not checked.\n" +
			"With -n KERNEL -s SIGNATURE, one kernel is checked under that signature.",
		ArgsUsage: "FILE|DIR...",
		Flags:     flags,
		Action: func(ctx context.Context, c *cli.Command) error {
			format := c.String("error-format")
			if format != "text" && format != "json" && format != "github" {
				return fmt.Errorf("gotriton check: unknown --error-format %q (want text, json or github)", format)
			}
			if c.String("kernel-name") != "" {
				return checkOne(c)
			}
			files, err := expandPythonFiles(c.Args().Slice())
			if err != nil {
				return err
			}
			consts, err := parseConstants(c.StringSlice("const"))
			if err != nil {
				return err
			}
			rep := &reporter{format: format, out: c.Root().Writer, errOut: c.Root().ErrWriter}
			loaded := loadAll(c, files, targetOf(c), rep)
			if !checkConstants(consts, loaded, rep) {
				return errReported
			}
			for _, f := range loaded {
				checkFile(f, consts, targetOf(c), c.Bool("debug"), rep)
			}
			fmt.Fprintf(c.Root().Writer, "%d kernels checked, %d errors, %d not checked\n", rep.checked, rep.errors, rep.notChecked)
			if rep.errors > 0 || (c.Bool("strict") && rep.notChecked > 0) {
				return errReported
			}
			return nil
		},
	}
}

// checkOne is check -n KERNEL [-s SIGNATURE] on one file.
func checkOne(c *cli.Command) error {
	f, err := loadFile(c)
	if err != nil {
		return err
	}
	name := c.String("kernel-name")
	specs := map[string]semantic.Options{}
	if c.IsSet("signature") {
		specs[name] = specOptions(c)
	}
	if err := semantic.Check(f, specs, name); err != nil {
		return err
	}
	fmt.Fprintf(c.Root().Writer, "%s: ok\n", f.Path)
	return nil
}

// expandPythonFiles expands folders to the .py files under them, in lexical order, leaving
// out hidden folders and blank files found there (an empty __init__.py); a file named
// explicitly is kept.
func expandPythonFiles(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("gotriton: give a kernel file or folder")
	}
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() {
			out = append(out, a) // a missing file is reported when it is read
			continue
		}
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != a && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // .git, .venv, ...
			}
			if !d.IsDir() && strings.HasSuffix(p, ".py") {
				if src, err := os.ReadFile(p); err == nil && len(bytes.TrimSpace(src)) == 0 {
					return nil
				}
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("gotriton: %v", err)
		}
	}
	return out, nil
}

// loadAll reads, parses and evaluates each file for target tgt, reporting those that fail.
func loadAll(c *cli.Command, files []string, tgtText string, rep *reporter) []*frontend.File {
	opts := pyeval.Options{Path: searchPath(c)}
	if t := tgtText; t != "" {
		tgt, err := target.Parse(t)
		if err != nil {
			rep.report(&diag.Error{File: files[0], Span: diag.Span{Line: 1}, Msg: err.Error()})
			return nil
		}
		opts.Target = tgt
	}
	var out []*frontend.File
	for _, p := range files {
		f, err := frontend.Load(p, opts)
		if err != nil {
			rep.report(err)
			continue
		}
		out = append(out, f)
	}
	return out
}

// parseConstants reads the -c flags.
func parseConstants(flags []string) (map[string]pyeval.Value, error) {
	out := map[string]pyeval.Value{}
	for _, s := range flags {
		name, v, err := launch.ParseConstant(s)
		if err != nil {
			return nil, fmt.Errorf("gotriton: -c %s: %v", s, err)
		}
		out[name] = v
	}
	return out, nil
}

// checkConstants reports every -c that names no parameter of any kernel.
func checkConstants(consts map[string]pyeval.Value, files []*frontend.File, rep *reporter) bool {
	unused := launch.UnusedConstants(consts, files...)
	for _, name := range unused {
		var all []string
		for _, f := range files {
			for _, k := range f.Kernels {
				all = append(all, k.Name)
			}
		}
		rep.report(fmt.Errorf("gotriton: -c %s: no kernel has a parameter named '%s' (kernels: %s)", name, name, strings.Join(all, ", ")))
	}
	return len(unused) == 0
}

// checkFile type-checks every kernel of f under its inferred specializations.
func checkFile(f *frontend.File, consts map[string]pyeval.Value, tgt string, debug bool, rep *reporter) {
	res := launch.Infer(f, launch.Options{Constants: consts})
	for _, kr := range res.Kernels {
		seen := map[string]bool{}
		failed := len(kr.Errors) > 0
		for _, err := range kr.Errors {
			rep.report(err)
		}
		checkedOne := false
		for _, s := range kr.Specs {
			opts := s.Options(tgt)
			opts.Debug = opts.Debug || debug
			_, err := semantic.Compile(f, f.Selector(kr.Kernel), opts)
			if err == nil || s.SkippedByAutotuner(err) {
				checkedOne = true
				continue
			}
			if s.Guessed && !independentOfSignature(err) {
				kr.Unknown = append(kr.Unknown, fmt.Sprintf("no launch of '%s' was reached, and under the guessed signature %q it does not type-check: %s", kr.Kernel.Name, s.SignatureText(), firstMessage(err)))
				continue
			}
			for _, d := range diagnostics(f, err) {
				if key := d.Error(); !seen[key] {
					seen[key] = true
					d.Notes = append(d.Notes, fmt.Sprintf("in the specialization %s", s))
					rep.report(d)
				}
			}
			failed = true
		}
		switch {
		case failed:
		case checkedOne:
			rep.checked++
		default:
			rep.notChecked++
			p := kr.Kernel.Def.Position()
			why := "no specialization could be inferred; pass -n and -s, or -c NAME=..."
			if len(kr.Unknown) > 0 {
				why = kr.Unknown[0]
			}
			rep.note(&diag.Error{File: f.Path, Span: diag.Span{Line: int(p.Lineno)}, Msg: fmt.Sprintf("kernel '%s' not checked: %s", kr.Kernel.QualName, why)})
		}
	}
}

// signatureIndependent are the messages of errors that no specialization avoids: reading
// an enclosing function's local, an import that cannot be found, syntax Triton rejects.
var signatureIndependent = []string{
	"a local of enclosing function", " did not resolve: ", "are not supported in triton kernels",
	"is not supported in triton", "nested function definition is not supported",
	"simultaneous multiple comparison is not supported", "else clauses of while loops are not supported",
}

// independentOfSignature reports whether a compile error would be the same under any
// specialization, so that a guessed signature shows it as well as a launched one.
func independentOfSignature(err error) bool {
	for _, d := range diagnostics(nil, err) {
		for _, s := range signatureIndependent {
			if strings.Contains(d.Msg, s) {
				return true
			}
		}
	}
	return false
}

func firstMessage(err error) string {
	if d, ok := diag.As(err); ok {
		return d.Msg
	}
	if l, ok := err.(diag.List); ok && len(l) > 0 {
		return l[0].Msg
	}
	return err.Error()
}

// diagnostics flattens an error into positioned diagnostics.
func diagnostics(f *frontend.File, err error) []*diag.Error {
	if d, ok := diag.As(err); ok {
		return []*diag.Error{d}
	}
	if l, ok := err.(diag.List); ok {
		return l
	}
	file := ""
	if f != nil {
		file = f.Path
	}
	return []*diag.Error{{File: file, Span: diag.Span{Line: 1}, Msg: err.Error()}}
}

// reporter prints diagnostics in the chosen format and counts them.
type reporter struct {
	format                      string
	out, errOut                 io.Writer
	checked, errors, notChecked int
}

func (r *reporter) report(err error) {
	r.errors++
	r.emit("error", err)
}

func (r *reporter) note(d *diag.Error) { r.emit("warning", d) }

func (r *reporter) emit(severity string, err error) {
	d, ok := diag.As(err)
	if !ok {
		d = &diag.Error{Msg: err.Error()}
	}
	switch r.format {
	case "json":
		obj := map[string]any{"severity": severity, "message": d.Msg, "file": d.File, "line": d.Span.Line, "column": d.Span.Col + 1}
		if d.Span.EndLine > 0 {
			obj["end_line"], obj["end_column"] = d.Span.EndLine, d.Span.EndCol+1
		}
		if len(d.Notes) > 0 {
			obj["notes"] = d.Notes
		}
		b, _ := json.Marshal(obj)
		fmt.Fprintln(r.out, string(b))
	case "github":
		var props []string
		if d.File != "" {
			props = append(props, "file="+d.File, fmt.Sprintf("line=%d", d.Span.Line), fmt.Sprintf("col=%d", d.Span.Col+1))
			if d.Span.EndLine > 0 {
				props = append(props, fmt.Sprintf("endLine=%d", d.Span.EndLine), fmt.Sprintf("endColumn=%d", d.Span.EndCol+1))
			}
		}
		fmt.Fprintf(r.out, "::%s %s::%s\n", severity, strings.Join(props, ","), githubEscape(d.Msg))
	default:
		if !ok {
			fmt.Fprintln(r.errOut, err)
			return
		}
		text := d.Error()
		if severity == "warning" {
			text = strings.Replace(text, ": error: ", ": warning: ", 1)
		}
		fmt.Fprintln(r.errOut, text)
	}
}

// githubEscape escapes a message for a workflow command.
func githubEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
