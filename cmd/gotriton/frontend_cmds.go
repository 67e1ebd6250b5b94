package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/frontend"
	"github.com/gotriton/gotriton/pyeval"
	"github.com/gotriton/gotriton/target"
)

func parseCommand() *cli.Command {
	return &cli.Command{
		Name:      "parse",
		Usage:     "print a Python file's syntax tree, as ast.dump(tree, include_attributes=True) does",
		ArgsUsage: "FILE",
		Action: func(ctx context.Context, c *cli.Command) error {
			path, err := oneFile(c)
			if err != nil {
				return err
			}
			src, err := frontend.ReadSource(path)
			if err != nil {
				return err
			}
			mod, err := frontend.ParseFile(path, src)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.Root().Writer, ast.Dump(mod))
			return nil
		},
	}
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list a file's jit functions, at any depth: qualnames, parameters, decorators, autotune configs",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			f, err := loadFile(c)
			if err != nil {
				return err
			}
			listing := describeFile(f)
			w := c.Root().Writer
			if c.Bool("json") {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false) // qualnames hold <locals>
				return enc.Encode(listing)
			}
			printListing(w, listing)
			return nil
		},
	}
}

func oneFile(c *cli.Command) (string, error) {
	if c.NArg() != 1 {
		return "", fmt.Errorf("gotriton %s: expected one FILE argument, got %d", c.Name, c.NArg())
	}
	return c.Args().First(), nil
}

// loadFile loads the command's one FILE argument as a kernel file.
func loadFile(c *cli.Command) (*frontend.File, error) {
	path, err := oneFile(c)
	if err != nil {
		return nil, err
	}
	opts := pyeval.Options{Path: searchPath(c)}
	if t := targetOf(c); t != "" {
		// Host code sees the target too (get_current_target(), is_hip() helpers).
		if opts.Target, err = target.Parse(t); err != nil {
			return nil, fmt.Errorf("gotriton: %v", err)
		}
	}
	return frontend.Load(path, opts)
}

// searchPath is where imported modules are looked for beyond the kernel file's folder and
// package roots: the --path flags, then the folders of GOTRITON_PATH.
func searchPath(c *cli.Command) []string {
	return append(c.StringSlice("path"), filepath.SplitList(os.Getenv("GOTRITON_PATH"))...)
}

// fileListing is what `gotriton list` reports, as text or JSON.
type fileListing struct {
	File      string          `json:"file"`
	Kernels   []kernelListing `json:"kernels"`
	Constants []constantDesc  `json:"constants"`
	Imports   []pyeval.Import `json:"imports"`
}

// kernelListing describes one jit function. Line and col are the def's, as CPython's ast
// gives them (col is the 0-based col_offset); selector is what -n takes to pick it.
type kernelListing struct {
	Name            string             `json:"name"`
	QualName        string             `json:"qualname"`
	DefName         string             `json:"def_name"`
	Selector        string             `json:"selector"`
	Line            int                `json:"line"`
	Col             int                `json:"col"`
	Params          []paramListing     `json:"params"`
	Decorators      []decoratorListing `json:"decorators"`
	FreeVars        []freeVarListing   `json:"free_vars,omitempty"`
	DoNotSpecialize []any              `json:"do_not_specialize,omitempty"`
	LaunchMetadata  string             `json:"launch_metadata,omitempty"`
	Autotune        *autotuneDesc      `json:"autotune,omitempty"`
	Heuristics      []heuristicDesc    `json:"heuristics,omitempty"`
}

// decoratorListing is one decorator, outermost first; error says why it could not be
// evaluated offline (it is then ignored).
type decoratorListing struct {
	Text  string `json:"text"`
	Path  string `json:"path,omitempty"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	Error string `json:"error,omitempty"`
}

// freeVarListing is a local of an enclosing function that a nested kernel reads.
type freeVarListing struct {
	Name     string `json:"name"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Function string `json:"function"`
	FuncLine int    `json:"function_line"`
}

type heuristicDesc struct {
	Name string `json:"name"`
	Fn   string `json:"fn"`
}

type paramListing struct {
	Name       string `json:"name"`
	Annotation string `json:"annotation,omitempty"`
	Constexpr  bool   `json:"constexpr"`
	Default    string `json:"default,omitempty"`
	KwOnly     bool   `json:"kw_only,omitempty"`
}

type autotuneDesc struct {
	Key     any `json:"key"`
	Configs any `json:"configs"`
	configs []pyeval.Value
	unknown string
}

type constantDesc struct {
	Name       string `json:"name"`
	Value      any    `json:"value"`
	Repr       string `json:"repr"`
	Annotation string `json:"annotation,omitempty"`
}

func describeFile(f *frontend.File) fileListing {
	out := fileListing{File: f.Path, Kernels: []kernelListing{}, Constants: []constantDesc{}, Imports: f.Module.Imports}
	if out.Imports == nil {
		out.Imports = []pyeval.Import{}
	}
	for _, k := range f.Kernels {
		kl := kernelListing{Name: k.Name, QualName: k.QualName, DefName: k.Def.Name, Selector: f.Selector(k),
			Line: int(k.Def.Lineno), Col: int(k.Def.ColOffset), Params: []paramListing{}, Decorators: describeDecorators(f, k)}
		for _, p := range k.Params {
			pl := paramListing{Name: p.Name, Annotation: p.Annotation, Constexpr: p.Constexpr, KwOnly: p.KwOnly}
			if p.Default != nil {
				pl.Default = f.Module.Text(p.Default.Position())
			}
			kl.Params = append(kl.Params, pl)
		}
		for _, fv := range k.FreeVars {
			kl.FreeVars = append(kl.FreeVars, freeVarListing{fv.Name, int(fv.Read.Lineno), int(fv.Read.ColOffset), fv.Func, fv.FuncLine})
		}
		for _, v := range k.JIT.DoNotSpecialize {
			kl.DoNotSpecialize = append(kl.DoNotSpecialize, pyeval.JSON(v))
		}
		kl.LaunchMetadata = k.JIT.LaunchMetadata
		if at := k.JIT.Autotune; at != nil {
			d := &autotuneDesc{Key: pyeval.JSON(at.Key), Configs: pyeval.JSON(at.Configs)}
			if l, ok := at.Configs.(*pyeval.List); ok {
				d.configs = l.Elems
			} else {
				d.unknown = pyeval.Repr(at.Configs)
			}
			kl.Autotune = d
		}
		if h := k.JIT.Heuristics; h != nil {
			for i, key := range h.Keys {
				fn := pyeval.Repr(h.Vals[i])
				if f, ok := h.Vals[i].(*pyeval.Function); ok && f.Lambda != nil {
					fn = f.Module.Text(f.Lambda.Pos)
				}
				kl.Heuristics = append(kl.Heuristics, heuristicDesc{pyeval.ToStr(key), fn})
			}
		}
		out.Kernels = append(out.Kernels, kl)
	}
	for _, n := range f.Module.Names() {
		v, _ := f.Module.Lookup(n)
		switch v.(type) {
		case pyeval.Int, pyeval.Float, pyeval.Str, pyeval.Bool, pyeval.Tuple:
			if strings.HasPrefix(n, "__") {
				continue
			}
			out.Constants = append(out.Constants, constantDesc{Name: n, Value: pyeval.JSON(v), Repr: pyeval.Repr(v), Annotation: f.Module.Annotations[n]})
		}
	}
	return out
}

// describeDecorators lists a kernel's decorators with the resolved name of each callee
// and, for those that could not be evaluated offline, the reason.
func describeDecorators(f *frontend.File, k *frontend.Kernel) []decoratorListing {
	out := []decoratorListing{}
	for i, d := range k.Def.DecoratorList {
		p := d.Position()
		dl := decoratorListing{Text: "@" + strings.Join(strings.Fields(f.Module.Text(p)), " "), Line: int(p.Lineno), Col: int(p.ColOffset)}
		if i < len(k.JIT.Decorators) {
			dl.Path = k.JIT.Decorators[i].Path
		}
		for _, prob := range k.DecoratorProblems {
			if prob.Index == i {
				dl.Error = prob.Reason
			}
		}
		out = append(out, dl)
	}
	return out
}

func printListing(w io.Writer, l fileListing) {
	fmt.Fprintf(w, "%s: %d jit function(s)\n", l.File, len(l.Kernels))
	for _, k := range l.Kernels {
		title := k.Name
		if strings.Contains(k.QualName, ".") {
			title = k.QualName
		}
		if k.Selector != title {
			title += fmt.Sprintf(" (line %d, -n %s)", k.Line, k.Selector)
		} else {
			title += fmt.Sprintf(" (line %d)", k.Line)
		}
		fmt.Fprintf(w, "\n%s\n", title)
		decorators := "none"
		if len(k.Decorators) > 0 {
			var texts []string
			for _, d := range k.Decorators {
				texts = append(texts, d.Text)
			}
			decorators = strings.Join(texts, " ")
		}
		if k.Name != k.DefName {
			decorators += " (made by calling triton.jit on " + k.DefName + ")"
		}
		fmt.Fprintf(w, "  decorators: %s\n", decorators)
		for _, d := range k.Decorators {
			if d.Error != "" {
				fmt.Fprintf(w, "  not evaluated, ignored: %s (line %d, col %d): %s\n", d.Text, d.Line, d.Col+1, d.Error)
			}
		}
		for _, fv := range k.FreeVars {
			fmt.Fprintf(w, "  reads '%s' (line %d, col %d), a local of enclosing function '%s' (line %d): not compilable, gotriton sees module globals only\n",
				fv.Name, fv.Line, fv.Col+1, fv.Function, fv.FuncLine)
		}
		fmt.Fprintln(w, "  params:")
		for _, p := range k.Params {
			line := "    " + p.Name
			if p.Annotation != "" {
				line += ": " + p.Annotation
			}
			if p.Default != "" {
				line += " = " + p.Default
			}
			if p.Constexpr {
				line += "  [constexpr]"
			}
			if p.KwOnly {
				line += "  [keyword-only]"
			}
			fmt.Fprintln(w, line)
		}
		if len(k.DoNotSpecialize) > 0 {
			fmt.Fprintf(w, "  do_not_specialize: %v\n", k.DoNotSpecialize)
		}
		if k.LaunchMetadata != "" {
			fmt.Fprintf(w, "  launch_metadata: %s\n", k.LaunchMetadata)
		}
		if at := k.Autotune; at != nil {
			key, _ := json.Marshal(at.Key)
			if at.unknown != "" {
				fmt.Fprintf(w, "  autotune: key=%s, configs not evaluated: %s\n", key, at.unknown)
			} else {
				fmt.Fprintf(w, "  autotune: key=%s, %d config(s)\n", key, len(at.configs))
				for _, c := range at.configs {
					fmt.Fprintf(w, "    %s\n", pyeval.Repr(c))
				}
			}
		}
		for _, h := range k.Heuristics {
			fmt.Fprintf(w, "  heuristic %s: %s\n", h.Name, h.Fn)
		}
	}
	if len(l.Constants) > 0 {
		fmt.Fprintln(w, "\nconstants:")
		for _, c := range l.Constants {
			ann := ""
			if c.Annotation != "" {
				ann = ": " + c.Annotation
			}
			fmt.Fprintf(w, "  %s%s = %s\n", c.Name, ann, c.Repr)
		}
	}
}
