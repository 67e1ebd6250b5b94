package frontend

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotriton/gotriton/ast"
	"github.com/gotriton/gotriton/pyeval"
)

// modelledModules are the top-level modules that gotriton models (triton, torch, numpy,
// packaging) or that belong to Python 3.12's standard library. They are never searched for
// on disk: the names they give stay pyeval.Refs.
var modelledModules = func() map[string]bool {
	m := map[string]bool{"triton": true, "torch": true, "numpy": true, "packaging": true, "importlib_metadata": true}
	for _, name := range strings.Fields(stdlibModules) {
		m[name] = true
	}
	return m
}()

// stdlibModules lists the top-level modules of Python 3.12's standard library
// (sys.stdlib_module_names, without the private ones).
const stdlibModules = "__future__ _collections_abc _thread abc aifc argparse array ast asyncio atexit audioop " +
	"base64 bdb binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code " +
	"codecs codeop collections colorsys compileall concurrent configparser contextlib " +
	"contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib " +
	"dis doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput " +
	"fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp " +
	"gzip hashlib heapq hmac html http imaplib imghdr importlib inspect io ipaddress itertools " +
	"json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes " +
	"mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path " +
	"numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes " +
	"pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile " +
	"pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource " +
	"rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtplib " +
	"sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat " +
	"statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog " +
	"tabnanny tarfile telnetlib tempfile termios textwrap threading time timeit tkinter token " +
	"tokenize tomllib trace traceback tracemalloc tty turtle types typing unicodedata unittest " +
	"urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml " +
	"xmlrpc zipapp zipfile zipimport zlib zoneinfo "

// importer resolves the imports of one kernel file and of the modules it imports, as
// Python would: relative imports against the importing module's package, absolute ones in
// the kernel file's folder, the package roots, then the search path. Each module file is
// evaluated once.
type importer struct {
	main    string // the kernel file
	opts    pyeval.Options
	modules map[string]*pyeval.Module // by cleaned file path, entered before the body runs
}

// newImporter returns the importer for a kernel file loaded with opts.
func newImporter(main string, opts pyeval.Options) pyeval.Importer {
	im := &importer{main: main, opts: opts, modules: map[string]*pyeval.Module{}}
	im.opts.Importer = im.load
	return im.load
}

// builtinModules holds gotriton's own models of modules of modelled packages that kernels
// call jit functions from (Inductor's triton_helpers), by their dotted path under builtin/.
//
//go:embed all:builtin
var builtinModules embed.FS

// builtinPrefix starts the file name of a built-in module in messages.
const builtinPrefix = "<gotriton>/"

// load implements pyeval.Importer.
func (im *importer) load(fromFile, module string, level int) (*pyeval.Module, error) {
	if level == 0 {
		rel := strings.ReplaceAll(module, ".", "/") + ".py"
		if src, err := builtinModules.ReadFile("builtin/" + rel); err == nil {
			return im.execSource(module, builtinPrefix+rel, src)
		}
	}
	top, _, _ := strings.Cut(module, ".")
	if level == 0 && modelledModules[top] {
		return nil, nil
	}
	var dirs []string
	if level > 0 {
		base := filepath.Dir(fromFile)
		for range level - 1 {
			base = filepath.Dir(base)
		}
		dirs = []string{base}
	} else {
		dirs = im.searchPath(fromFile, top)
	}
	rel := filepath.FromSlash(strings.ReplaceAll(module, ".", "/"))
	for _, d := range dirs {
		p := filepath.Join(d, rel)
		if isFile(p + ".py") {
			return im.exec(p + ".py")
		}
		if isFile(filepath.Join(p, "__init__.py")) {
			return im.exec(filepath.Join(p, "__init__.py"))
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			// A folder without __init__.py is a namespace package: its submodules are
			// its only attributes.
			return im.namespace(p), nil
		}
	}
	hint := ""
	if level == 0 {
		hint = "; add its folder with --path or GOTRITON_PATH"
	}
	return nil, fmt.Errorf("no module named '%s%s' (searched %s%s)", strings.Repeat(".", level), module, strings.Join(dirs, ", "), hint)
}

// searchPath lists where an absolute import of a module under package top is looked for:
// the kernel file's folder, the package roots of the kernel file and of the importing file,
// the parent of each folder above them named top (a package whose folders lack
// __init__.py, as namespace packages do), then opts.Path.
func (im *importer) searchPath(fromFile, top string) []string {
	var dirs []string
	seen := map[string]bool{}
	candidates := []string{filepath.Dir(im.main), packageRoot(im.main), packageRoot(fromFile)}
	for _, f := range []string{im.main, fromFile} {
		for d := filepath.Dir(filepath.Clean(f)); filepath.Dir(d) != d; d = filepath.Dir(d) {
			if filepath.Base(d) == top {
				candidates = append(candidates, filepath.Dir(d))
			}
		}
	}
	for _, d := range append(candidates, im.opts.Path...) {
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// exec parses and evaluates a module file once. A circular import gets the module as far
// as it is initialized, as in Python.
func (im *importer) exec(path string) (*pyeval.Module, error) {
	path = filepath.Clean(path)
	if m, ok := im.modules[path]; ok {
		return m, nil
	}
	src, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return im.execSource(moduleName(path), path, src)
}

// execSource parses and evaluates the source of module name, kept under path.
func (im *importer) execSource(name, path string, src []byte) (*pyeval.Module, error) {
	if m, ok := im.modules[path]; ok {
		return m, nil
	}
	mod, err := ParseFile(path, src)
	if err != nil {
		return nil, err
	}
	opts := im.opts
	opts.Started = func(m *pyeval.Module) { im.modules[path] = m }
	return pyeval.Exec(name, path, src, mod, opts), nil
}

// namespace returns the module of a folder without __init__.py. Its File is where the
// __init__.py would be, so that its submodules resolve relative to it.
func (im *importer) namespace(dir string) *pyeval.Module {
	path := filepath.Join(filepath.Clean(dir), "__init__.py")
	if m, ok := im.modules[path]; ok {
		return m
	}
	m := pyeval.Exec(moduleName(path), path, nil, &ast.Module{}, im.opts)
	im.modules[path] = m
	return m
}

// packageRoot is the folder above the outermost package that holds file: the folder to
// put on the search path so that the file's package imports by its full name.
func packageRoot(file string) string {
	d := filepath.Dir(file)
	for isFile(filepath.Join(d, "__init__.py")) {
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return d
}

// moduleName is the dotted name of a module file within its packages: pkg.ops.utils for
// pkg/ops/utils.py, pkg.ops for pkg/ops/__init__.py.
func moduleName(file string) string {
	var parts []string
	if base := filepath.Base(file); base != "__init__.py" {
		parts = append(parts, strings.TrimSuffix(base, ".py"))
	}
	d := filepath.Dir(file)
	for isFile(filepath.Join(d, "__init__.py")) || len(parts) == 0 {
		parts = append([]string{filepath.Base(d)}, parts...)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return strings.Join(parts, ".")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
